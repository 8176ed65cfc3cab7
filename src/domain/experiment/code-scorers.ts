import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { jsonOf } from '../execution/output';
import { REVIEW_SCORE_NAMES } from './review-scores';
import { ajvRegExp, regexProblem, type SafeRegex, safeRegex } from './safe-regex';
import {
  MAX_SCORERS,
  SCORER_SCHEMA_MAX_BYTES,
  SCORER_SCHEMA_MAX_DEPTH,
  type Score,
  type ScorerDefinition,
  scorerName,
} from './scorer-definitions';
import { measureWordEdit } from './word-edit-distance';

/** The scorers that need no model: all but `judge`. */
export type CodeScorerDefinition = Exclude<ScorerDefinition, { type: 'judge' }>;

/** What a code scorer says of one output; the caller adds whose execution and step it is (a Score). */
export type OutputScore = Pick<Score, 'name' | 'kind' | 'value' | 'comment'> & {
  kind: 'boolean' | 'number';
  value: boolean | number;
};

/** What a scorer reads: the step's output, and the dataset item's expected text for the step, if any. */
export interface ScoredText {
  output: string;
  expected?: string | null | undefined;
}

/**
 * ajv compares the items of a `uniqueItems` array pairwise when they are objects (quadratic): a schema asking
 * for it scores outputs up to this long only.
 */
export const UNIQUE_ITEMS_MAX_CHARS = 50_000;

/** A `similarity` scorer passes at this similarity or more, unless it names its own threshold. */
export const SIMILARITY_THRESHOLD = 0.8;

export const SCORER_MESSAGES = {
  tooMany: `Một experiment chỉ được có tối đa ${MAX_SCORERS} scorer`,
  duplicateName: (name: string) =>
    `Tên scorer "${name}" bị trùng: mỗi scorer cần một tên riêng (đặt name cho scorer cùng loại, cùng step)`,
  reservedName: (name: string) =>
    `Tên scorer "${name}" trùng với một điểm của review (${Object.values(REVIEW_SCORE_NAMES).join(', ')}): hãy đặt tên khác`,
  unknownStep: (name: string, stepId: string) =>
    `Scorer "${name}": bước ${stepId} không có trong phiên bản flow đã chọn`,
  of: (name: string, problem: string) => `Scorer "${name}": ${problem}`,
  judgeWithoutModel: 'scorer judge cần một model',
  minAboveMax: 'min phải nhỏ hơn hoặc bằng max',
  noBounds: 'scorer length cần ít nhất min hoặc max',
  schemaTooLarge: `schema dài quá ${SCORER_SCHEMA_MAX_BYTES.toLocaleString('en-US')} byte`,
  schemaTooDeep: `schema lồng nhau quá sâu (tối đa ${SCORER_SCHEMA_MAX_DEPTH} cấp object và mảng)`,
  invalidSchema: (why: string) => `JSON Schema không hợp lệ: ${why}`,
  schemaPattern: (pattern: string, problem: string) => `pattern "${pattern}" trong schema: ${problem}`,
  notJson: 'Output không phải JSON hợp lệ',
  schemaMismatch: (why: string) => `Output không khớp schema: ${why}`,
} as const;

/**
 * The score of one output, or null when the scorer cannot score it: `equals` and `similarity` without an
 * expected text; a `jsonSchema` with `uniqueItems` on an output longer than UNIQUE_ITEMS_MAX_CHARS; or with a
 * pattern or schema checkScorerDefinitions refuses.
 *
 * - `equals`: the output and the expected text, both trimmed and in Unicode NFC, are the same; case counts
 *   unless `caseSensitive: false`.
 * - `contains`: the output holds `text` as it is (case counts).
 * - `regex`: the pattern matches somewhere in the output (anchor it with ^…$ to match the whole), as
 *   RE2 reads it, a matcher that never backtracks (safe-regex.ts).
 * - `jsonSchema`: the output (a fenced ```json block as well) is JSON that the schema (JSON Schema 2020-12,
 *   with ajv-formats' formats) accepts.
 * - `length`: the output has min to max characters (Unicode code points), bounds included.
 * - `similarity`: a number from 0 to 1, 1 − (word edit distance ÷ the word count of the longer text); two
 *   texts without words are the same (1). Pass or fail against the threshold (default 0.8) is said in the
 *   comment rather than by a second score, so one scorer stays one column; the compare grid reads the number.
 *   Texts more than MAX_EDIT_DISTANCE words apart get an upper bound (the comment says so).
 */
export function scoreOutput(definition: CodeScorerDefinition, text: ScoredText): OutputScore | null {
  const name = scorerName(definition);
  const { output } = text;
  const expected = text.expected ?? null;
  const yes = (value: boolean, comment: string | null = null): OutputScore => ({
    name,
    kind: 'boolean',
    value,
    comment,
  });
  switch (definition.type) {
    case 'equals': {
      if (expected === null) return null;
      const caseSensitive = definition.caseSensitive ?? true;
      const form = (s: string) => {
        const normal = s.trim().normalize('NFC');
        return caseSensitive ? normal : normal.toLowerCase();
      };
      return yes(form(output) === form(expected));
    }
    case 'contains':
      return yes(output.includes(definition.text));
    case 'regex': {
      const regex = compiledRegex(definition);
      if (!regex) return null;
      return yes(regex.test(output));
    }
    case 'jsonSchema': {
      const compiled = compiledSchema(definition);
      if (typeof compiled === 'string') return null;
      if (compiled.uniqueItems && output.length > UNIQUE_ITEMS_MAX_CHARS) return null;
      const json = jsonOf(output);
      if (json === undefined) return yes(false, SCORER_MESSAGES.notJson);
      if (compiled.validate(json)) return yes(true);
      const [first] = compiled.validate.errors ?? [];
      const why = first ? `${first.instancePath || '/'} ${first.message ?? ''}`.trim() : '';
      return yes(false, SCORER_MESSAGES.schemaMismatch(why));
    }
    case 'length': {
      const length = codePoints(output);
      const ok = length >= (definition.min ?? 0) && length <= (definition.max ?? Number.POSITIVE_INFINITY);
      return yes(ok, `${length} ký tự`);
    }
    case 'similarity': {
      if (expected === null) return null;
      const threshold = definition.threshold ?? SIMILARITY_THRESHOLD;
      const edit = measureWordEdit(output, expected);
      const longer = Math.max(edit.wordsA, edit.wordsB);
      const value = longer === 0 ? 1 : round4(1 - edit.distance / longer);
      const verdict = value >= threshold ? `đạt ngưỡng ${threshold}` : `dưới ngưỡng ${threshold}`;
      const distance = edit.exact
        ? `khác ${edit.distance} từ`
        : `khác ít nhất ${edit.distance} từ (giá trị là mức tối đa)`;
      return { name, kind: 'number', value, comment: `${verdict}; ${distance}` };
    }
    default: {
      const _exhaustive: never = definition;
      return null;
    }
  }
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * What is wrong with an experiment's scorers, in Vietnamese, one message each (none: they may run):
 * too many, a name used twice or taken by a review score, a step not in the flow (when `stepIds` are given), a regex that does not
 * compile or that could backtrack for long (safe-regex.ts), a JSON Schema that is too large or that ajv
 * refuses, `length` bounds the wrong way round or missing. Meant for when the experiment is created, so a
 * scorer never fails while it runs.
 */
export function checkScorerDefinitions(
  definitions: readonly ScorerDefinition[],
  stepIds?: readonly string[],
): string[] {
  const problems: string[] = [];
  if (definitions.length > MAX_SCORERS) problems.push(SCORER_MESSAGES.tooMany);
  const seen = new Set<string>();
  for (const definition of definitions) {
    const name = scorerName(definition);
    if (seen.has(name)) problems.push(SCORER_MESSAGES.duplicateName(name));
    if (RESERVED_NAMES.has(name)) problems.push(SCORER_MESSAGES.reservedName(name));
    seen.add(name);
    if (stepIds && definition.stepId !== undefined && !stepIds.includes(definition.stepId))
      problems.push(SCORER_MESSAGES.unknownStep(name, definition.stepId));
    const problem = definitionProblem(definition);
    if (problem) problems.push(SCORER_MESSAGES.of(name, problem));
  }
  return problems;
}

/** The names review scores take: a scorer's would be read as theirs in the compare grid. */
const RESERVED_NAMES = new Set<string>(Object.values(REVIEW_SCORE_NAMES));

function definitionProblem(definition: ScorerDefinition): string | null {
  switch (definition.type) {
    case 'regex':
      return regexProblem(definition.pattern, definition.flags ?? '');
    case 'jsonSchema': {
      const compiled = compiledSchema(definition);
      return typeof compiled === 'string' ? compiled : null;
    }
    case 'judge':
      return definition.model.trim() === '' ? SCORER_MESSAGES.judgeWithoutModel : null;
    case 'length':
      if (definition.min === undefined && definition.max === undefined) return SCORER_MESSAGES.noBounds;
      if (definition.min !== undefined && definition.max !== undefined && definition.min > definition.max)
        return SCORER_MESSAGES.minAboveMax;
      return null;
    default:
      return null;
  }
}

// Compiled once per definition (the same object for every output an experiment scores).
const regexes = new WeakMap<object, SafeRegex | null>();

function compiledRegex(definition: Extract<ScorerDefinition, { type: 'regex' }>): SafeRegex | null {
  if (regexes.has(definition)) return regexes.get(definition) ?? null;
  const regex = safeRegex(definition.pattern, definition.flags ?? '');
  const usable = typeof regex === 'string' ? null : regex;
  regexes.set(definition, usable);
  return usable;
}

interface CompiledSchema {
  validate: ValidateFunction;
  /** Whether it asks for `uniqueItems` anywhere (see UNIQUE_ITEMS_MAX_CHARS). */
  uniqueItems: boolean;
}

const schemas = new WeakMap<object, CompiledSchema | string>();

/** The schema compiled, or why it cannot be (in Vietnamese). */
function compiledSchema(
  definition: Extract<ScorerDefinition, { type: 'jsonSchema' }>,
): CompiledSchema | string {
  const known = schemas.get(definition);
  if (known !== undefined) return known;
  const compiled = compileSchema(definition.schema);
  schemas.set(definition, compiled);
  return compiled;
}

function compileSchema(schema: Record<string, unknown>): CompiledSchema | string {
  // Before anything walks it by recursion: JSON.stringify itself runs out of stack on a deep enough value.
  if (nestsDeeperThan(schema, SCORER_SCHEMA_MAX_DEPTH)) return SCORER_MESSAGES.schemaTooDeep;
  const text = JSON.stringify(schema);
  if (new TextEncoder().encode(text).length > SCORER_SCHEMA_MAX_BYTES) return SCORER_MESSAGES.schemaTooLarge;
  const patterns = patternsOf(schema);
  for (const pattern of patterns) {
    // ajv runs patterns with the `u` flag.
    const problem = regexProblem(pattern, 'u');
    if (problem) return SCORER_MESSAGES.schemaPattern(pattern, problem);
  }
  // Its own instance for each schema: two schemas with one `$id` do not clash, and nothing is cached for good.
  // Its patterns run on the matcher that never backtracks.
  const ajv = new Ajv2020({ strict: false, allErrors: false, code: { regExp: ajvRegExp } });
  addFormats(ajv);
  try {
    return { validate: ajv.compile(schema), uniqueItems: /"uniqueItems":true/.test(text) };
  } catch (error) {
    return SCORER_MESSAGES.invalidSchema(error instanceof Error ? error.message : String(error));
  }
}

/** Whether a JSON value nests objects and arrays more than `limit` deep (the value itself is 1): no recursion. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Every `pattern` and `patternProperties` key in a schema, wherever it is (over-counting is harmless). */
function patternsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(patternsOf);
  if (value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'pattern' && typeof inner === 'string') found.push(inner);
    if (key === 'patternProperties' && inner !== null && typeof inner === 'object')
      found.push(...Object.keys(inner));
    found.push(...patternsOf(inner));
  }
  return found;
}
