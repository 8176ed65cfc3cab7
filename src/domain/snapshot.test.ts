import { describe, expect, it } from 'vitest';
import { canonicalJson, hasFields, snapshotDue } from './snapshot';

describe('snapshotDue: an append writes a snapshot when it crosses a multiple of the interval', () => {
  it.each([
    [0, 1, 100, false],
    [98, 99, 100, false],
    [99, 100, 100, true],
    [99, 101, 100, true],
    [100, 101, 100, false],
    [150, 250, 100, true],
    [0, 350, 100, true],
    [5, 6, 1, true],
    [5, 6, 0, false],
  ])('from %i to %i every %i: %s', (before, after, every, due) => {
    expect(snapshotDue(before, after, every)).toBe(due);
  });
});

describe('canonicalJson', () => {
  it('is the same text whatever order the keys were made in, undefined fields left out', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 3, e: 4 }], c: undefined } })).toBe(
      canonicalJson({ a: { d: [2, { e: 4, f: 3 }] }, b: 1 }),
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });
});

describe('hasFields', () => {
  it('checks the kind of each named field, null only where allowed', () => {
    const kinds = { id: 'string', at: 'string|null', list: 'array', n: 'number|null' } as const;
    expect(hasFields({ id: 'x', at: null, list: [], n: 1 }, kinds)).toBe(true);
    expect(hasFields({ id: 'x', at: null, list: {}, n: 1 }, kinds)).toBe(false);
    expect(hasFields({ id: null, at: null, list: [], n: 1 }, kinds)).toBe(false);
    expect(hasFields({ id: 'x', list: [], n: null }, kinds)).toBe(false);
    expect(hasFields([], kinds)).toBe(false);
    expect(hasFields('text', kinds)).toBe(false);
  });
});
