/**
 * Patterns of `regex` scorers (and of `pattern` keywords in a `jsonSchema` scorer's schema) are anyone's
 * text, run on the server by JavaScript's RegExp, which backtracks: `(a+)+$` on a long run of a's takes
 * exponential time and blocks the process. No matcher without backtracking (RE2 or the like) is among the
 * project's packages, so a pattern is let through only when this conservative check finds none of the
 * constructs that backtrack badly, and it is run on at most REGEX_INPUT_MAX_CHARS characters:
 *
 * - no backreference (`\1`, `\k<name>`) and no lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`);
 * - a group repeated more than once (`(…)*`, `(…)+`, `(…){2,}`) holds no quantifier and no `|`
 *   (nested quantifiers and repeated alternatives are what make backtracking exponential);
 * - one quantifier that may repeat many times (`*`, `+`, `{n,}`, `{n,m}` with m at least LONG_REPEAT), or
 *   two in a pattern anchored at the start (`^…` without the `m` flag and without a `|` outside groups):
 *   k of them side by side over the same characters cost O(nᵏ) per starting point, and an unanchored
 *   search tries every starting point (`a*a*b` on 1,000 a's takes more than half a second in V8);
 * - the short optional parts (`?`, `{1,3}`) together give at most REGEX_MAX_CHOICES ways to split a text.
 *
 * The limitation: many harmless patterns are refused (`(yes|no)+`, `\d+(\.\d+)?`, `.*a.*b`), outputs
 * longer than REGEX_INPUT_MAX_CHARS are not scored, and what is let through may still cost O(n²) on them
 * (a few hundred milliseconds at worst). A linear-time matcher (RE2-like) would lift all three.
 */

/** How much of a text a pattern runs on: a longer output is not scored by a `regex` scorer. */
export const REGEX_INPUT_MAX_CHARS = 10_000;
/** Quantifiers that may repeat LONG_REPEAT times or more, in one pattern anchored at its start. */
export const REGEX_MAX_LONG_REPEATS = 2;
const LONG_REPEAT = 20;
/** The product of the choices the short quantifiers give (`?` gives 2, `{1,3}` gives 3). */
export const REGEX_MAX_CHOICES = 16;

export const REGEX_MESSAGES = {
  invalid: (why: string) => `Biểu thức regex không hợp lệ: ${why}`,
  backreference: 'Biểu thức regex không được dùng tham chiếu ngược (\\1, \\k<tên>)',
  lookaround: 'Biểu thức regex không được dùng lookahead/lookbehind ((?=, (?!, (?<=, (?<!)',
  nested:
    'Biểu thức regex không được lặp một nhóm có chứa phép lặp hoặc dấu | (ví dụ (a+)+ hay (a|b)*): hãy dùng lớp ký tự như [ab]*',
  tooManyRepeats: `Biểu thức regex chỉ được có một phép lặp dài (*, +, {n,}), hoặc ${REGEX_MAX_LONG_REPEATS} khi bắt đầu bằng ^`,
  tooManyChoices: 'Biểu thức regex có quá nhiều phần tùy chọn (?, {n,m})',
} as const;

interface Frame {
  quantified: boolean;
  alternation: boolean;
}

const QUANTIFIER = /^(?:[*+?]|\{(\d+)(?:(,)(\d*))?\})\??/;

/**
 * Why the pattern may not run (in Vietnamese), or null when it may: it must compile with `flags`, and pass
 * the check above.
 */
export function regexProblem(pattern: string, flags = ''): string | null {
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return REGEX_MESSAGES.invalid(error instanceof Error ? error.message : String(error));
  }
  const frames: Frame[] = [{ quantified: false, alternation: false }];
  // What the next quantifier applies to: a group just closed (with what it held), or a single atom.
  let last: Frame | 'atom' | null = null;
  let longRepeats = 0;
  let topAlternation = false;
  let choices = 1;
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) return REGEX_MESSAGES.backreference;
      i += 2;
      last = 'atom';
      continue;
    }
    if (ch === '[') {
      // A class ends at the first `]` not escaped (in JavaScript `[]` is an empty class).
      let j = i + 1;
      if (pattern[j] === '^') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      i = j + 1;
      last = 'atom';
      continue;
    }
    if (ch === '(') {
      if (/^\(\?(?:[=!]|<[=!])/.test(pattern.slice(i, i + 4))) return REGEX_MESSAGES.lookaround;
      frames.push({ quantified: false, alternation: false });
      i += pattern.startsWith('(?:', i) ? 3 : 1;
      last = null;
      continue;
    }
    if (ch === ')') {
      const group = frames.length > 1 ? frames.pop()! : { quantified: false, alternation: false };
      // What a group holds, the group around it holds too.
      const around = frames[frames.length - 1]!;
      around.quantified ||= group.quantified;
      around.alternation ||= group.alternation;
      i++;
      last = group;
      continue;
    }
    if (ch === '|') {
      if (frames.length === 1) topAlternation = true;
      frames[frames.length - 1]!.alternation = true;
      i++;
      last = null;
      continue;
    }
    const quantifier = QUANTIFIER.exec(pattern.slice(i, i + 30));
    if (quantifier && last !== null) {
      const [text, min, comma, max] = quantifier;
      const low = text[0] === '+' ? 1 : min === undefined ? 0 : Number(min);
      const high =
        text[0] === '*' || text[0] === '+'
          ? Number.POSITIVE_INFINITY
          : text[0] === '?'
            ? 1
            : comma === undefined
              ? low
              : max === ''
                ? Number.POSITIVE_INFINITY
                : Number(max);
      if (high > 1 && last !== 'atom' && (last.quantified || last.alternation)) return REGEX_MESSAGES.nested;
      if (high >= LONG_REPEAT) longRepeats++;
      else choices *= high - low + 1;
      if (choices > REGEX_MAX_CHOICES) return REGEX_MESSAGES.tooManyChoices;
      if (high > low) frames[frames.length - 1]!.quantified = true;
      i += text.length;
      last = null;
      continue;
    }
    i++;
    last = 'atom';
  }
  const anchored = pattern.startsWith('^') && !flags.includes('m') && !topAlternation;
  if (longRepeats > (anchored ? REGEX_MAX_LONG_REPEATS : 1)) return REGEX_MESSAGES.tooManyRepeats;
  return null;
}
