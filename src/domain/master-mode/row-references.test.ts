import { describe, expect, it } from 'vitest';
import { referencedRows, resolveRowReferences, rowNumber, stepReferencesAsRows } from './row-references';

describe('row references', () => {
  it('numbers rows with three digits', () => {
    expect(rowNumber(1)).toBe('001');
    expect(rowNumber(42)).toBe('042');
    expect(rowNumber(1234)).toBe('1234');
  });

  it('puts row N’s result in place of [[row-N]], in every spelling', () => {
    const resolved = resolveRowReferences('A: [[row-1]]; B: [[Row_2]]; again [[ row-001 ]]', [
      'alpha',
      'beta',
    ]);
    expect(resolved.text).toBe('A: alpha; B: beta; again alpha');
    expect(resolved.references).toEqual({ '1': 'alpha', '2': 'beta' });
    expect(resolved.unresolved).toEqual([]);
  });

  it('leaves references to missing rows as written and lists them', () => {
    const resolved = resolveRowReferences('[[row-0]] [[row-5]] [[row-5]] [[step-1]]', ['x']);
    expect(resolved.text).toBe('[[row-0]] [[row-5]] [[row-5]] [[step-1]]');
    expect(resolved.unresolved).toEqual([0, 5]);
  });

  it('does not read a result as a reference again', () => {
    expect(resolveRowReferences('[[row-1]]', ['[[row-2]]', 'secret']).text).toBe('[[row-2]]');
  });

  it('lists the rows a text references once each', () => {
    expect(referencedRows('[[row-2]] [[row-1]] [[row-2]]')).toEqual([2, 1]);
  });

  it('turns a flow step’s [[step-N]] into the row that step became', () => {
    const rowOfOrder = new Map([
      [1, 1],
      [3, 2],
    ]);
    expect(
      stepReferencesAsRows('Use [[step-3]] and [[Step_1]], not [[step-2]] or [[Outline]]', rowOfOrder),
    ).toBe('Use [[row-2]] and [[row-1]], not [[step-2]] or [[Outline]]');
  });
});
