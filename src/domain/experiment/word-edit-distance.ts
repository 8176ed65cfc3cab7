import { MAX_EDIT_DISTANCE } from '../execution/text-diff';

/** The words of a text: what is between blanks. Blanks themselves (how many, which) are no words. */
export const wordsOf = (text: string): string[] => text.match(/\S+/g) ?? [];

/**
 * How much comparing work one distance may cost (token comparisons and furthest points together): two
 * long texts whose words repeat (the same word on many lines) could otherwise take O(words × distance).
 */
const WORK_BUDGET = 20_000_000;

/** A word edit distance, and whether it is exact or only a lower bound. */
export interface WordEdit {
  /** Word insertions, deletions and substitutions, each counting 1 (Levenshtein over words). */
  distance: number;
  /** False when the texts differ by more than the limit (or cost too much to compare): `distance` is "at least". */
  exact: boolean;
  /** How many words each text has. */
  wordsA: number;
  wordsB: number;
}

/**
 * Levenshtein distance over words: the fewest word insertions, deletions and substitutions (each counting 1)
 * that make `a` into `b`. Words are compared exactly (case and punctuation count); blanks do not count, so
 * re-wrapping a text is no edit.
 *
 * Bounded: beyond `limit` (MAX_EDIT_DISTANCE, 1,000 words, as the word diff of the review screen) the
 * answer is `limit` with `exact: false`, so big rewrites cost O(limit²) at most besides reading the texts.
 * Texts with only local edits cost little whatever their length: the common start and end are skipped, and
 * equal runs between edits are walked along (Ukkonen / Landau–Vishkin furthest points per diagonal).
 */
export function measureWordEdit(a: string, b: string, limit = MAX_EDIT_DISTANCE): WordEdit {
  const wordsA = wordsOf(a);
  const wordsB = wordsOf(b);
  const { distance, exact } = boundedDistance(interned(wordsA, wordsB), limit);
  return { distance, exact, wordsA: wordsA.length, wordsB: wordsB.length };
}

/**
 * The word edit distance between the model's text and an edited one (see measureWordEdit): at most
 * MAX_EDIT_DISTANCE, which then means "that many or more". A metric: 0 only for the same words, symmetric,
 * and the triangle inequality holds (capping keeps it).
 */
export const wordEditDistance = (a: string, b: string): number => measureWordEdit(a, b).distance;

/** Both texts' words as numbers (equal words, equal numbers), so comparing is cheap. */
function interned(a: string[], b: string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const idOf = (word: string) => {
    let id = ids.get(word);
    if (id === undefined) {
      id = ids.size;
      ids.set(word, id);
    }
    return id;
  };
  return [Int32Array.from(a, idOf), Int32Array.from(b, idOf)];
}

function boundedDistance([fullA, fullB]: [Int32Array, Int32Array], limit: number) {
  // The common start and end need no edit.
  let start = 0;
  while (start < fullA.length && start < fullB.length && fullA[start] === fullB[start]) start++;
  let endA = fullA.length;
  let endB = fullB.length;
  while (endA > start && endB > start && fullA[endA - 1] === fullB[endB - 1]) {
    endA--;
    endB--;
  }
  const a = fullA.subarray(start, endA);
  const b = fullB.subarray(start, endB);
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return capped(n + m, limit);
  // Each word more in one text is at least one edit.
  if (Math.abs(n - m) > limit) return { distance: limit, exact: false };

  // fr[k + offset]: the furthest index reached in `a` on diagonal k (b's index = a's + k) with d edits.
  const offset = n + 1;
  const NONE = -2 * (n + m + 2);
  let prev = new Int32Array(n + m + 3).fill(NONE);
  let cur = new Int32Array(n + m + 3).fill(NONE);
  let work = 0;
  const slide = (from: number, k: number) => {
    let i = from;
    while (i < n && i + k < m && a[i] === b[i + k]) i++;
    work += i - from + 1;
    return i;
  };
  prev[offset] = slide(0, 0);
  const goal = m - n;
  if (goal === 0 && prev[offset] === n) return { distance: 0, exact: true };
  const top = Math.min(limit, Math.max(n, m));
  for (let d = 1; d <= top; d++) {
    const low = -Math.min(d, n);
    const high = Math.min(d, m);
    for (let k = low; k <= high; k++) {
      const at = k + offset;
      // A substitution on the diagonal, a deletion of a's word (from k + 1), an insertion of b's (from k - 1).
      let i = Math.max(prev[at]! + 1, prev[at + 1]! + 1, prev[at - 1]!);
      i = Math.min(i, n, m - k);
      cur[at] = i < 0 || i + k < 0 ? NONE : slide(i, k);
    }
    if (cur[goal + offset] === n) return { distance: d, exact: true };
    if (work > WORK_BUDGET) return { distance: Math.min(d + 1, limit), exact: false };
    [prev, cur] = [cur, prev];
    cur.fill(NONE, low - 1 + offset, high + 2 + offset);
  }
  return { distance: limit, exact: false };
}

const capped = (distance: number, limit: number) =>
  distance > limit ? { distance: limit, exact: false } : { distance, exact: true };
