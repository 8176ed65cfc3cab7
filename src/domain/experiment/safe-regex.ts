import { compileLinearRegex, type LinearRegex } from './linear-regex';
import { SCORER_PATTERN_MAX_LENGTH } from './scorer-definitions';

/**
 * Patterns of `regex` scorers (and of `pattern` keywords in a `jsonSchema` scorer's schema) are anyone's
 * text, run on the server. JavaScript's RegExp backtracks: `(a+)+$` on a long run of a's takes exponential
 * time and blocks the process. No matcher without backtracking (RE2 or the like) is among the project's
 * packages, so they run on linear-regex.ts, which reads a text once whatever the pattern: JavaScript's
 * syntax and meaning, without backreferences and lookarounds (refused when the experiment is created).
 *
 * Its time is the text's length × the pattern's program size; a text that would take more than
 * REGEX_MAX_WORK steps (2,000,000 characters for a 10-state pattern) is not scored.
 */
export const REGEX_MAX_WORK = 20_000_000;

/** Why the pattern may not run (in Vietnamese), or null when it may. */
export function regexProblem(pattern: string, flags = ''): string | null {
  const regex = safeRegex(pattern, flags);
  return typeof regex === 'string' ? regex : null;
}

export const REGEX_MESSAGES = {
  tooLong: `Biểu thức regex dài quá ${SCORER_PATTERN_MAX_LENGTH} ký tự`,
  invalid: (why: string) => `Biểu thức regex không hợp lệ: ${why}`,
} as const;
const { invalid } = REGEX_MESSAGES;

/** A regex that never backtracks, or why the pattern cannot be one (in Vietnamese). */
export function safeRegex(pattern: string, flags = ''): SafeRegex | string {
  // A schema's patterns are as short as a scorer's (and the parser's depth stays small).
  if (pattern.length > SCORER_PATTERN_MAX_LENGTH) return REGEX_MESSAGES.tooLong;
  try {
    // The syntax is JavaScript's: what RegExp refuses is refused, whatever linear-regex.ts would read.
    new RegExp(pattern, flags);
  } catch (error) {
    return invalid(error instanceof Error ? error.message : String(error));
  }
  // With the `u` flag (ajv's patterns), code point escapes mean what the matcher (code units) cannot read.
  if (flags.includes('u') && /\\u\{|\\[pP]\{/.test(pattern))
    return invalid('\\u{…}, \\p{…} chưa được hỗ trợ');
  const linear = compileLinearRegex(pattern, flags.replace('u', ''));
  if (typeof linear === 'string') return linear;
  return new SafeRegex(linear, pattern, flags);
}

/** Too long a text for the pattern: thrown by `test`, so a JSON Schema's validation stops with it. */
export class RegexTooCostly extends Error {}

export class SafeRegex {
  constructor(
    private readonly linear: LinearRegex,
    private readonly pattern: string,
    private readonly flags: string,
  ) {}

  /** Whether `text` is short enough for the pattern (REGEX_MAX_WORK). */
  fits(text: string): boolean {
    return text.length * this.linear.size <= REGEX_MAX_WORK;
  }

  /** Whether the pattern matches somewhere in `text`; throws RegexTooCostly when the text does not fit. */
  test(text: string): boolean {
    if (!this.fits(text)) throw new RegexTooCostly(`/${this.pattern}/: text too long`);
    return this.linear.test(text);
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
