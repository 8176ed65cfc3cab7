import { RE2JS } from 're2js';
import { SCORER_PATTERN_MAX_LENGTH } from './scorer-definitions';

/**
 * Patterns of `regex` scorers (and of `pattern` keywords in a `jsonSchema` scorer's schema) are anyone's
 * text, run on the server. JavaScript's RegExp backtracks: `(a+)+$` on a long run of a's takes exponential
 * time and blocks the process. They run on RE2 (re2js, its JavaScript port), whose time grows with the text's
 * length and never more: RE2's syntax, which is JavaScript's without backreferences and lookarounds (such a
 * pattern is refused when the experiment is created).
 */
export const REGEX_MESSAGES = {
  tooLong: `Biểu thức regex dài quá ${SCORER_PATTERN_MAX_LENGTH} ký tự`,
  invalid: (why: string) =>
    `Biểu thức regex không hợp lệ (cú pháp RE2: không có backreference hay lookaround): ${why}`,
} as const;

/** Why the pattern may not run (in Vietnamese), or null when it may. */
export function regexProblem(pattern: string, flags = ''): string | null {
  const regex = safeRegex(pattern, flags);
  return typeof regex === 'string' ? regex : null;
}

/** The flags RE2 reads: i, m and s; u and g change nothing (RE2 reads code points, and only tests here). */
function flagBits(flags: string): number {
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  return bits;
}

/** A regex that never backtracks, or why the pattern cannot be one (in Vietnamese). */
export function safeRegex(pattern: string, flags = ''): SafeRegex | string {
  if (pattern.length > SCORER_PATTERN_MAX_LENGTH) return REGEX_MESSAGES.tooLong;
  try {
    return new SafeRegex(RE2JS.compile(pattern, flagBits(flags)), pattern, flags);
  } catch (error) {
    return REGEX_MESSAGES.invalid(error instanceof Error ? error.message : String(error));
  }
}

export class SafeRegex {
  constructor(
    private readonly compiled: RE2JS,
    private readonly pattern: string,
    private readonly flags: string,
  ) {}

  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean {
    return this.compiled.test(text);
  }

  toString(): string {
    return `/${this.pattern}/${this.flags}`;
  }
}

/** The engine ajv runs `pattern` and `patternProperties` with (its `code.regExp` option). */
export const ajvRegExp = Object.assign(
  (pattern: string, flags: string) => {
    const regex = safeRegex(pattern, flags);
    if (typeof regex === 'string') throw new Error(regex);
    return regex;
  },
  { code: 'safeRegex' },
);
