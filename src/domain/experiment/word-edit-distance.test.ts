import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_EDIT_DISTANCE } from '../execution/text-diff';
import { measureWordEdit, wordEditDistance, wordsOf } from './word-edit-distance';

/** The textbook dynamic programme, for small inputs. */
function levenshtein(a: string[], b: string[]): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/** Texts of a few short words from a small vocabulary, so that they share words. */
const text = fc
  .array(fc.constantFrom('a', 'b', 'c', 'the', 'The', 'x.'), { maxLength: 12 })
  .chain((words) =>
    fc
      .array(fc.constantFrom(' ', '  ', '\n', '\t '), { minLength: words.length, maxLength: words.length })
      .map((blanks) => words.map((w, i) => `${w}${blanks[i]}`).join('')),
  );

describe('wordEditDistance', () => {
  it('counts inserted, deleted and replaced words, one each', () => {
    expect(wordEditDistance('the cat sat', 'the cat sat')).toBe(0);
    expect(wordEditDistance('the cat sat', 'the dog sat')).toBe(1);
    expect(wordEditDistance('the cat sat', 'the cat sat down')).toBe(1);
    expect(wordEditDistance('the cat sat', 'cat sat')).toBe(1);
    expect(wordEditDistance('', 'one two three')).toBe(3);
    expect(wordEditDistance('a b c', 'x y z')).toBe(3);
    // Two words swapped: two substitutions.
    expect(wordEditDistance('a b', 'b a')).toBe(2);
  });

  it('does not count blanks, and counts case and punctuation', () => {
    expect(wordEditDistance('the  cat\nsat', 'the cat sat')).toBe(0);
    expect(wordEditDistance('The cat', 'the cat')).toBe(1);
    expect(wordEditDistance('cat sat', 'cat sat.')).toBe(1);
  });

  it('is 0 from a text to itself, and symmetric', () => {
    fc.assert(fc.property(text, (a) => wordEditDistance(a, a) === 0));
    fc.assert(fc.property(text, text, (a, b) => wordEditDistance(a, b) === wordEditDistance(b, a)));
  });

  it('is the Levenshtein distance over words', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(wordEditDistance(a, b)).toBe(levenshtein(wordsOf(a), wordsOf(b)));
      }),
      { numRuns: 500 },
    );
  });

  it('holds the triangle inequality', () => {
    fc.assert(
      fc.property(
        text,
        text,
        text,
        (a, b, c) => wordEditDistance(a, c) <= wordEditDistance(a, b) + wordEditDistance(b, c),
      ),
    );
  });

  it('counts one for a single word replaced, inserted or deleted', () => {
    const words = fc.array(fc.stringMatching(/^[a-z]{1,5}$/), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(words, fc.nat(), fc.stringMatching(/^[A-Z]{1,5}$/), (ws, at, word) => {
        const i = at % ws.length;
        const text = ws.join(' ');
        expect(wordEditDistance(text, ws.with(i, word).join(' '))).toBe(1);
        expect(wordEditDistance(text, ws.toSpliced(i, 0, word).join(' '))).toBe(1);
        expect(wordEditDistance(text, ws.toSpliced(i, 1).join(' '))).toBe(1);
      }),
    );
  });

  it('counts k words changed far apart as k', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat(199), { maxLength: 20 }), (positions) => {
        const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
        const edited = words.map((w, i) => (positions.includes(i) ? `${w}!` : w));
        expect(wordEditDistance(words.join(' '), edited.join(' '))).toBe(positions.length);
      }),
    );
  });

  it('stops at MAX_EDIT_DISTANCE, saying the distance is a lower bound', () => {
    const many = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');
    const apart = measureWordEdit(many('a', 3000), many('b', 3000));
    expect(apart).toEqual({ distance: MAX_EDIT_DISTANCE, exact: false, wordsA: 3000, wordsB: 3000 });
    expect(measureWordEdit('', many('b', 1500))).toMatchObject({ distance: MAX_EDIT_DISTANCE, exact: false });
    expect(measureWordEdit(many('a', 10), many('b', 10))).toMatchObject({ distance: 10, exact: true });
  });

  it('is quick on long texts with a few edits, and on long repetitive texts', () => {
    const long = Array.from({ length: 100_000 }, (_, i) => `w${i % 7}`);
    const edited = long.map((w, i) => (i % 10_000 === 5 ? 'changed' : w));
    const started = performance.now();
    expect(wordEditDistance(long.join(' '), edited.join(' '))).toBe(10);
    const shifted = measureWordEdit(long.join(' '), ['x', ...long.slice(0, -1)].join(' '));
    expect(shifted.distance).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
