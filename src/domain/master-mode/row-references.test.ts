import { describe, expect, it } from 'vitest';
import {
  referencedRows,
  resolveRowReferences,
  rowNumber,
  stepReferencesAsRows,
  unresolvedReferences,
} from './row-references';

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

  it('turns every reference that names a flow step, by step-N or by name, into the row that step became', () => {
    const steps = [
      { order: 1, name: 'Dàn ý', row: 1 },
      { order: 3, name: 'Bản nháp', row: 2 },
    ];
    expect(
      stepReferencesAsRows(
        'Use [[step-3]], [[Step_1]], [[ dàn ý ]] and [[Bản nháp]]; not [[step-2]] or [[Outline]]',
        steps,
      ),
    ).toBe('Use [[row-2]], [[row-1]], [[row-1]] and [[row-2]]; not [[step-2]] or [[Outline]]');
  });

  it('lists the references of a row that resolve to nothing, once each, as written', () => {
    expect(
      unresolvedReferences('[[row-1]] [[row-3]] [[Outline]] [[row-0]] [[Outline]] [[ROW_2]]', 2),
    ).toEqual(['[[row-3]]', '[[Outline]]', '[[row-0]]']);
    expect(unresolvedReferences('no references', 0)).toEqual([]);
  });
});
