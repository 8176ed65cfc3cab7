import { describe, expect, it } from 'vitest';
import {
  type CodeScorerDefinition,
  checkScorerDefinitions,
  SCORER_MESSAGES,
  scoreOutput,
  UNIQUE_ITEMS_MAX_CHARS,
} from './code-scorers';
import { REGEX_MESSAGES, regexProblem } from './safe-regex';
import { SCORER_SCHEMA_MAX_DEPTH, scorerDefinition, scorerName } from './scorer-definitions';

const score = (definition: CodeScorerDefinition, output: string, expected?: string | null) =>
  scoreOutput(definition, { output, expected });
const scored = (definition: CodeScorerDefinition, output: string, expected?: string | null) =>
  score(definition, output, expected)?.value;

describe('scoreOutput', () => {
  it('equals: trimmed, in NFC, case counting unless caseSensitive is false; nothing without expected', () => {
    expect(score({ type: 'equals' }, '  Hà Nội \n', 'Hà Nội')).toEqual({
      name: 'equals',
      kind: 'boolean',
      value: true,
      comment: null,
    });
    expect(scored({ type: 'equals' }, 'Ha\u0300 Nội', 'Hà Nội')).toBe(true);
    expect(scored({ type: 'equals' }, 'hà nội', 'Hà Nội')).toBe(false);
    expect(scored({ type: 'equals', caseSensitive: false }, 'hà nội', 'HÀ NỘI')).toBe(true);
    expect(score({ type: 'equals' }, 'x', null)).toBeNull();
    expect(score({ type: 'equals' }, 'x')).toBeNull();
  });

  it('contains: the text as it is', () => {
    expect(scored({ type: 'contains', text: 'green tea' }, 'Try green tea.')).toBe(true);
    expect(scored({ type: 'contains', text: 'Green tea' }, 'Try green tea.')).toBe(false);
  });

  it('regex: a match anywhere, with its flags', () => {
    expect(scored({ type: 'regex', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, '2026-11-29')).toBe(true);
    expect(scored({ type: 'regex', pattern: 'tea' }, 'Green TEA')).toBe(false);
    expect(scored({ type: 'regex', pattern: 'tea', flags: 'i' }, 'Green TEA')).toBe(true);
    expect(scored({ type: 'regex', pattern: '^b$', flags: 'm' }, 'a\nb\nc')).toBe(true);
    expect(scored({ type: 'regex', pattern: '^a+$' }, 'a'.repeat(1_000_000))).toBe(true);
    // A pattern the check refuses is never run.
    expect(score({ type: 'regex', pattern: '(a)\\1' }, 'aa')).toBeNull();
  });

  it('regex: never backtracks, so a pattern that would hang RegExp scores a long output at once', () => {
    const started = performance.now();
    const output = `${'a'.repeat(50_000)}!`;
    expect(scored({ type: 'regex', pattern: '(a+)+$' }, output)).toBe(false);
    expect(scored({ type: 'regex', pattern: '(a+)+!$' }, output)).toBe(true);
    expect(scored({ type: 'regex', pattern: '^(a|aa)+$' }, output)).toBe(false);
    expect(scored({ type: 'regex', pattern: '(\\w+\\s?)+$' }, output)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('jsonSchema: its patterns run on the same matcher', () => {
    const definition: CodeScorerDefinition = {
      type: 'jsonSchema',
      schema: { type: 'object', patternProperties: { '^(a+)+$': { type: 'string', pattern: '^(a|aa)+$' } } },
    };
    const long = 'a'.repeat(30_000);
    expect(scored(definition, JSON.stringify({ aaa: long }))).toBe(true);
    expect(scored(definition, JSON.stringify({ aaa: `${long}!` }))).toBe(false);
    expect(scored(definition, JSON.stringify({ b: 'c' }))).toBe(true);
  });

  it('jsonSchema with uniqueItems: not on outputs past UNIQUE_ITEMS_MAX_CHARS', () => {
    const definition: CodeScorerDefinition = {
      type: 'jsonSchema',
      schema: { type: 'array', uniqueItems: true },
    };
    expect(scored(definition, '[{"a":1},{"a":2}]')).toBe(true);
    expect(scored(definition, '[{"a":1},{"a":1}]')).toBe(false);
    const many = JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ a: i })));
    expect(many.length).toBeGreaterThan(UNIQUE_ITEMS_MAX_CHARS);
    expect(score(definition, many)).toBeNull();
  });

  it('jsonSchema: JSON (fenced too) the schema accepts, with formats; the first error as the comment', () => {
    const definition: CodeScorerDefinition = {
      type: 'jsonSchema',
      schema: {
        type: 'object',
        required: ['title', 'email'],
        properties: { title: { type: 'string', minLength: 1 }, email: { type: 'string', format: 'email' } },
      },
    };
    expect(scored(definition, '{"title":"Trà","email":"a@b.vn"}')).toBe(true);
    expect(scored(definition, '```json\n{"title":"Trà","email":"a@b.vn"}\n```')).toBe(true);
    expect(score(definition, '{"title":"Trà","email":"not an email"}')).toMatchObject({
      value: false,
      comment: SCORER_MESSAGES.schemaMismatch('/email must match format "email"'),
    });
    expect(score(definition, 'Title: Trà')).toMatchObject({ value: false, comment: SCORER_MESSAGES.notJson });
  });

  it('length: characters as code points, bounds included', () => {
    const definition: CodeScorerDefinition = { type: 'length', min: 2, max: 3 };
    expect(score(definition, 'ab')).toMatchObject({ value: true, comment: '2 ký tự' });
    expect(scored(definition, '😀😀😀')).toBe(true);
    expect(scored(definition, 'abcd')).toBe(false);
    expect(scored({ type: 'length', max: 0 }, '')).toBe(true);
    expect(scored({ type: 'length', min: 1 }, '')).toBe(false);
  });

  it('similarity: 1 − word edit distance ÷ the longer text, passing at the threshold (default 0.8)', () => {
    const ten = 'one two three four five six seven eight nine ten';
    expect(score({ type: 'similarity' }, ten, ten.replace('five', '5'))).toEqual({
      name: 'similarity',
      kind: 'number',
      value: 0.9,
      comment: 'đạt ngưỡng 0.8; khác 1 từ',
    });
    expect(score({ type: 'similarity', threshold: 0.95 }, ten, ten.replace('five', '5'))?.comment).toBe(
      'dưới ngưỡng 0.95; khác 1 từ',
    );
    expect(scored({ type: 'similarity' }, 'a b', 'c d e f')).toBe(0);
    expect(scored({ type: 'similarity' }, '', '  ')).toBe(1);
    expect(score({ type: 'similarity' }, ten)).toBeNull();
  });

  it('similarity of texts too far apart to measure gives an upper bound and says so', () => {
    const words = (prefix: string) => Array.from({ length: 2000 }, (_, i) => `${prefix}${i}`).join(' ');
    expect(score({ type: 'similarity' }, words('a'), words('b'))).toMatchObject({
      value: 0.5,
      comment: 'dưới ngưỡng 0.8; khác ít nhất 1000 từ (giá trị là mức tối đa)',
    });
  });
});

describe('scorerName', () => {
  it('is the name given, or the type with the step read', () => {
    expect(scorerName({ type: 'contains', text: 'x', name: ' Has x ' })).toBe('Has x');
    expect(scorerName({ type: 'contains', text: 'x' })).toBe('contains');
    expect(scorerName({ type: 'contains', text: 'x', stepId: 'step-2' })).toBe('contains (step-2)');
  });
});

describe('checkScorerDefinitions', () => {
  it('lets good scorers through', () => {
    const definitions = [
      { type: 'equals' },
      { type: 'regex', pattern: '^\\s*(yes|no)\\s*$', flags: 'i' },
      { type: 'jsonSchema', schema: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } },
      { type: 'length', min: 1, max: 10 },
      { type: 'similarity', stepId: 'step-1' },
      { type: 'judge', model: 'openai:gpt-4.1-mini', prompt: 'Is it polite?' },
    ].map((d) => scorerDefinition.parse(d));
    expect(checkScorerDefinitions(definitions, ['step-1'])).toEqual([]);
  });

  it('says in Vietnamese what is wrong with each bad one', () => {
    const problems = checkScorerDefinitions(
      [
        { type: 'contains', text: 'a' },
        { type: 'contains', text: 'b' },
        { type: 'regex', pattern: '(a)\\1', name: 'backreference' },
        { type: 'regex', pattern: '([a-z]', name: 'broken' },
        { type: 'jsonSchema', schema: { type: 'nope' }, name: 'schema' },
        { type: 'jsonSchema', schema: { type: 'string', pattern: 'a(?=b)' }, name: 'schema pattern' },
        { type: 'length', min: 5, max: 2, name: 'bounds' },
        { type: 'length', name: 'no bounds' },
        { type: 'equals', stepId: 'step-9' },
        { type: 'equals', name: 'approved' },
      ],
      ['step-1'],
    );
    expect(problems).toEqual([
      SCORER_MESSAGES.duplicateName('contains'),
      expect.stringMatching(/^Scorer "backreference": Biểu thức regex không hợp lệ \(cú pháp RE2/),
      expect.stringMatching(/^Scorer "broken": Biểu thức regex không hợp lệ/),
      expect.stringMatching(/^Scorer "schema": JSON Schema không hợp lệ: /),
      expect.stringMatching(/^Scorer "schema pattern": .*a\(\?=b\).*Biểu thức regex không hợp lệ/),
      SCORER_MESSAGES.of('bounds', SCORER_MESSAGES.minAboveMax),
      SCORER_MESSAGES.of('no bounds', SCORER_MESSAGES.noBounds),
      SCORER_MESSAGES.unknownStep('equals (step-9)', 'step-9'),
      SCORER_MESSAGES.reservedName('approved'),
    ]);
  });

  it('refuses a schema nested deeper than SCORER_SCHEMA_MAX_DEPTH, however deep, instead of running out of stack', () => {
    const nested = (depth: number) =>
      JSON.parse(`{"const":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`);
    const check = (depth: number) => checkScorerDefinitions([{ type: 'jsonSchema', schema: nested(depth) }]);
    expect(check(SCORER_SCHEMA_MAX_DEPTH)).toEqual([]);
    for (const depth of [SCORER_SCHEMA_MAX_DEPTH + 1, 9_900, 1_000_000])
      expect(check(depth)).toEqual([SCORER_MESSAGES.of('jsonSchema', SCORER_MESSAGES.schemaTooDeep)]);
  });

  it('refuses more scorers than an experiment may have', () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ type: 'equals' as const, name: `e${i}` }));
    expect(checkScorerDefinitions(many)).toEqual([SCORER_MESSAGES.tooMany]);
  });
});

describe('regexProblem', () => {
  it.each(['(a)\\1', '(?<x>a)\\k<x>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b', '(?:a{1000}){1000}'])(
    'refuses %s, which RE2 cannot run',
    (pattern) => {
      expect(regexProblem(pattern)).toMatch(/^Biểu thức regex không hợp lệ \(cú pháp RE2/);
    },
  );

  it.each([
    'tea',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^\\s*(yes|no)\\s*$',
    '\\d+(\\.\\d+)?',
    '(a+)+$',
    '.*a.*b.*c',
    '[(a+)+]',
    '^(?<year>\\d{4})',
  ])('lets %s through', (pattern) => {
    expect(regexProblem(pattern)).toBeNull();
  });

  it('refuses a malformed pattern, and one too long', () => {
    expect(regexProblem('a{2,1}')).toMatch(/^Biểu thức regex không hợp lệ/);
    expect(regexProblem('([a-z]')).toMatch(/^Biểu thức regex không hợp lệ/);
    expect(regexProblem(`${'('.repeat(300)}a${')'.repeat(300)}`)).toBe(REGEX_MESSAGES.tooLong);
  });
});
