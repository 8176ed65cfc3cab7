import { describe, expect, it } from 'vitest';
import { searchWithSelection, selectionRead, versionSelectionOf } from './version-selection';

const VERSIONS = [1, 2, 3, 4];

describe('versionSelectionOf', () => {
  it('chooses the current version, compared from the one before, by default', () => {
    expect(versionSelectionOf('', VERSIONS)).toEqual({ version: 4, base: 3 });
    expect(versionSelectionOf('', [])).toBeNull();
  });

  it('reads ?version= and ?base=, ignoring versions the flow does not have', () => {
    expect(versionSelectionOf('?version=2', VERSIONS)).toEqual({ version: 2, base: 1 });
    expect(versionSelectionOf('?version=3&base=1', VERSIONS)).toEqual({ version: 3, base: 1 });
    expect(versionSelectionOf('?version=9&base=x', VERSIONS)).toEqual({ version: 4, base: 3 });
    expect(versionSelectionOf('?version=&base=', VERSIONS)).toEqual({ version: 4, base: 3 });
    expect(versionSelectionOf('?version=2.5', VERSIONS)).toEqual({ version: 4, base: 3 });
  });

  it('shows the first version by itself', () => {
    expect(versionSelectionOf('?version=1', VERSIONS)).toEqual({ version: 1, base: 1 });
    expect(versionSelectionOf('', [1])).toEqual({ version: 1, base: 1 });
  });
});

describe('searchWithSelection', () => {
  it('keeps other parameters, and drops the base when only a version is chosen', () => {
    expect(searchWithSelection('?version=3&base=1&x=y', { version: 2 })).toBe('?version=2&x=y');
    expect(searchWithSelection('', { version: 2, base: 4 })).toBe('?version=2&base=4');
  });
});

describe('selectionRead', () => {
  it('wants every page without a chosen version: the current one is the newest, on the last', () => {
    expect(selectionRead('', VERSIONS, false)).toBe(false);
    expect(selectionRead('?version=x', VERSIONS, false)).toBe(false);
    expect(selectionRead('', VERSIONS, true)).toBe(true);
  });

  it('wants the pages up to the chosen version and its base, or the last when the flow has none such', () => {
    expect(selectionRead('?version=2', VERSIONS, false)).toBe(true);
    expect(selectionRead('?version=2&base=7', VERSIONS, false)).toBe(false);
    expect(selectionRead('?version=9', VERSIONS, false)).toBe(false);
    expect(selectionRead('?version=9', VERSIONS, true)).toBe(true);
  });
});
