import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileLinearRegex,
  LINEAR_REGEX_MAX_STATES,
  LINEAR_REGEX_MESSAGES,
  type LinearRegex,
} from './linear-regex';

const compiled = (pattern: string, flags = ''): LinearRegex => {
  const regex = compileLinearRegex(pattern, flags);
  if (typeof regex === 'string') throw new Error(regex);
  return regex;
};

/** Patterns from a small grammar, over the characters the texts are made of. */
const pattern: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      'a',
      'b',
      'A',
      '.',
      '\\d',
      '\\w',
      '\\s',
      '\\W',
      '[ab]',
      '[^a]',
      '[a-c]',
      '[A-Z_]',
      'é',
      '\\n',
      'Σ',
      's',
      'i',
      '[éÉ]',
      '[^σ]',
      '[r-t]',
      '[\\s\\d]',
    ),
    fc.constantFrom('^', '$', '\\b', '\\B'),
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => `${x}${y}`),
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => `(?:${x}|${y})`),
    fc
      .tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?'))
      .map(([x, q]) => `(${x})${q}`),
  ),
})).node;
const text = fc.stringMatching(/^[abcAB1 _\néÉσςΣsSiIıſ\n]{0,12}$/);
const flags = fc.subarray(['i', 'm', 's']).map((f) => f.join(''));

describe('compileLinearRegex', () => {
  it('answers as RegExp.prototype.test does', () => {
    fc.assert(
      fc.property(pattern, flags, fc.array(text, { minLength: 1, maxLength: 5 }), (source, f, texts) => {
        let native: RegExp;
        try {
          native = new RegExp(source, f);
        } catch {
          return; // `^*` and the like: JavaScript refuses them, and so would the scorer's check.
        }
        const linear = compiled(source, f);
        for (const t of texts)
          expect(linear.test(t), `/${source}/${f} on ${JSON.stringify(t)}`).toBe(native.test(t));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['^\\d{4}-\\d{2}-\\d{2}$', '', '2026-11-29', true],
    ['^\\d{4}-\\d{2}-\\d{2}$', '', '2026-11-2', false],
    ['tea', 'i', 'Green TEA', true],
    ['^b$', 'm', 'a\nb\nc', true],
    ['^b$', '', 'a\nb\nc', false],
    ['a.c', '', 'a\nc', false],
    ['a.c', 's', 'a\nc', true],
    ['\\bcat\\b', '', 'a cat!', true],
    ['\\bcat\\b', '', 'concatenate', false],
    ['[\\]\\-]x', '', ']x', true],
    ['[]', '', 'anything', false],
    ['[^]', '', 'x', true],
    ['\\x41\\u0042\\cJ\\0', '', 'AB\n\0', true],
    ['(?<year>\\d{4})', '', 'in 1999', true],
    ['a{,2}', '', 'a{,2}', true],
    ['x*', '', '', true],
    ['HÀ NỘI', 'i', 'hà nội', true],
  ])('/%s/%s on %j is %s', (source, f, t, expected) => {
    expect(compiled(source, f).test(t)).toBe(expected);
    expect(new RegExp(source, f).test(t)).toBe(expected);
  });

  it('refuses what needs backtracking, and programs too large', () => {
    expect(compileLinearRegex('(a)\\1')).toBe(LINEAR_REGEX_MESSAGES.backreference);
    expect(compileLinearRegex('(?<x>a)\\k<x>')).toBe(LINEAR_REGEX_MESSAGES.backreference);
    expect(compileLinearRegex('a(?=b)')).toBe(LINEAR_REGEX_MESSAGES.lookaround);
    expect(compileLinearRegex('(?<!a)b')).toBe(LINEAR_REGEX_MESSAGES.lookaround);
    expect(compileLinearRegex('(?:a{100}){101}')).toBe(LINEAR_REGEX_MESSAGES.tooLarge);
    expect(compiled('(?:a{100}){99}').size).toBeLessThanOrEqual(LINEAR_REGEX_MAX_STATES);
  });

  it('takes linear time on the patterns that hang a backtracking matcher', () => {
    const evil = `${'a'.repeat(100_000)}!`;
    const started = performance.now();
    for (const source of ['(a+)+$', '(a|aa)+$', '(a*)*b', 'a*a*a*a*b', '(\\w+\\s?)+$', '(.*){1,20}[bc]'])
      expect(compiled(source).test(evil)).toBe(false);
    expect(compiled('(a+)+!$').test(evil)).toBe(true);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
