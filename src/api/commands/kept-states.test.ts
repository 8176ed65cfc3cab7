import { describe, expect, it } from 'vitest';
import { approximateSize, KeptStates } from './kept-states';

describe('KeptStates', () => {
  it('keeps the latest version of each stream, as a first try no more once a later event is seen', () => {
    const kept = new KeptStates();
    kept.keep('s', { state: 'two', version: 2 });
    kept.keep('s', { state: 'one', version: 1 });
    expect(kept.get('s')).toEqual({ state: 'two', version: 2 });
    kept.seen('s', 2);
    expect(kept.get('s')).toEqual({ state: 'two', version: 2 });
    kept.seen('s', 3);
    expect(kept.get('s')).toBeUndefined();
    // Still a state of the stream as of version 2, for a reader to fold the later events onto.
    expect(kept.behindOrNot('s')).toEqual({ state: 'two', version: 2 });
    kept.keep('s', { state: 'three', version: 3 });
    expect(kept.get('s')).toEqual({ state: 'three', version: 3 });
  });

  it('holds at most its size in all, the least recently used going first, and never one state too large', () => {
    const text = (characters: number) => ({ output: 'x'.repeat(characters) });
    const size = approximateSize(text(1000), Number.POSITIVE_INFINITY);
    const kept = new KeptStates(3 * size, 2 * size);
    kept.keep('a', { state: text(1000), version: 1 });
    kept.keep('b', { state: text(1000), version: 1 });
    kept.keep('c', { state: text(1000), version: 1 });
    kept.get('a');
    kept.keep('d', { state: text(1000), version: 1 });
    expect(['a', 'b', 'c', 'd'].filter((id) => kept.get(id) !== undefined)).toEqual(['a', 'c', 'd']);
    expect(kept.held).toEqual({ states: 3, bytes: 3 * size });

    kept.keep('huge', { state: text(5000), version: 1 });
    expect(kept.get('huge')).toBeUndefined();
    // A newer version too large to keep drops the older one: it must not be taken for the latest.
    kept.keep('a', { state: text(5000), version: 2 });
    expect(kept.get('a')).toBeUndefined();
    expect(kept.held.states).toBe(2);
  });

  it('sizes a state by its strings, and stops counting past the limit', () => {
    expect(approximateSize({ a: 'xy', b: [1, null, 'z'] }, 1000)).toBe(
      16 + 2 + 12 + 16 + 2 + 32 + 8 + 8 + 10,
    );
    // Past the limit the elements are not walked: only the array's own references count.
    expect(
      approximateSize(
        Array.from({ length: 1e6 }, () => 'word'),
        1000,
      ),
    ).toBe(8 * (1e6 + 1));
  });

  it('counts a state that shares objects with one counted before as it counts a copy of it', () => {
    const results = Array.from({ length: 100 }, (_, i) => ({ id: `r${i}`, text: 'x'.repeat(i), tags: [i] }));
    const first = { results, status: 'running' };
    approximateSize(first, Number.POSITIVE_INFINITY);
    const next = { results: [...results, { id: 'new', text: 'y', tags: [] }], status: 'done' };
    expect(approximateSize(next, Number.POSITIVE_INFINITY)).toBe(
      approximateSize(structuredClone(next), Number.POSITIVE_INFINITY),
    );
  });

  it('counts a state from the one it followed as it counts a copy of it: added, changed and dropped elements', () => {
    const result = (i: number, text = 'x'.repeat(i % 7)) => ({ id: `r${i}`, text, tags: [i] });
    const results = Array.from({ length: 50 }, (_, i) => result(i));
    const first = { results, runs: [{ id: 'run-1' }], status: 'running' };
    const whole = (state: unknown) => approximateSize(structuredClone(state), Number.POSITIVE_INFINITY);
    expect(approximateSize(first, Number.POSITIVE_INFINITY)).toBe(whole(first));
    const changed = [...results];
    changed[10] = result(10, 'a much longer text than before');
    const nexts = [
      { ...first, results: [...results, result(50)] },
      { ...first, results: changed },
      { ...first, results: results.slice(0, 20), runs: [] },
      { ...first, results: [result(99, 'other'), ...results.slice(1)], status: 'completed', extra: ['e'] },
    ];
    for (const next of nexts)
      expect(approximateSize(next, Number.POSITIVE_INFINITY, first)).toBe(whole(next));
    // Past the limit all the same.
    expect(approximateSize(nexts[0], 100, first)).toBeGreaterThan(100);
  });
});
