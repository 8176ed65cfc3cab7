import { z } from 'zod';
import type { OutputMode } from '../domain/flow';

/** What a step's output mode asks of the model: an instruction and, for structured modes, a JSON schema. */
export interface StructuredOutput {
  instruction: string;
  json?: { schema: object };
}

/**
 * The JSON Schema keywords Gemini's JSON mode (`responseJsonSchema`) honours. Others (lengths, patterns,
 * defaults) are left out of what the model is asked: the answer is checked against the zod schema anyway.
 */
const MODEL_KEYWORDS = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
]);
/** Keywords whose value is one schema, a list of schemas, or schemas by name. */
const ONE_SCHEMA = new Set(['items', 'additionalProperties']);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'prefixItems']);
const SCHEMAS_BY_NAME = new Set(['properties', '$defs']);

/** z.int() bounds every integer to the safe range, which tells the model nothing. */
const isSafeIntegerBound = (key: string, value: unknown) =>
  (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) ||
  (key === 'maximum' && value === Number.MAX_SAFE_INTEGER);

function forModel(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'const') kept.enum = [value];
    if (!MODEL_KEYWORDS.has(key) || isSafeIntegerBound(key, value)) continue;
    if (ONE_SCHEMA.has(key)) kept[key] = forModel(value);
    else if (SCHEMA_LIST.has(key)) kept[key] = (value as unknown[]).map(forModel);
    else if (SCHEMAS_BY_NAME.has(key)) {
      kept[key] = Object.fromEntries(Object.entries(value as object).map(([name, s]) => [name, forModel(s)]));
    } else kept[key] = value;
  }
  // A nullable value is written as a list of types; anyOf says the same in a form Gemini documents.
  if (Array.isArray(kept.type)) {
    const { type: types, ...rest } = kept;
    return { anyOf: (types as string[]).map((type) => (type === 'null' ? { type } : { ...rest, type })) };
  }
  return kept;
}

/**
 * The JSON Schema a model's JSON answer is asked to follow, made from the zod schema the answer is read
 * with: its input side (what the model writes), in the keywords Gemini's JSON mode takes.
 */
export function modelJsonSchemaOf(schema: z.ZodType): object {
  return forModel(z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' })) as object;
}

const BASE =
  'You are one step of a multi-step workflow. Answer the task of this step clearly, in the language of the task.';

/** What a multiple-output step asks for: several alternatives, each named. */
const branchesAnswer = z.array(z.object({ branchName: z.string(), content: z.string() }));
const MULTIPLE_SCHEMA = modelJsonSchemaOf(branchesAnswer);

/** What a multiple-choice step asks for: one of its choices, and why. */
const choiceAnswer = (choices: string[]) =>
  z.object({
    choice: choices.length > 0 ? z.enum(choices as [string, ...string[]]) : z.string(),
    reason: z.string().optional(),
  });

export function structuredOutputFor(mode: OutputMode, choices: string[]): StructuredOutput {
  switch (mode) {
    case 'single':
    case 'loop':
      return { instruction: BASE };
    case 'multiple':
      return {
        instruction: `${BASE} Give several distinct alternatives, each with a short branch name.`,
        json: { schema: MULTIPLE_SCHEMA },
      };
    case 'multiple_choice':
      return {
        instruction: `${BASE} Choose exactly one of these options: ${choices.join(' | ')}. Explain the choice briefly.`,
        json: { schema: modelJsonSchemaOf(choiceAnswer(choices)) },
      };
    default: {
      const unknown: never = mode;
      throw new Error(`Unknown output mode ${String(unknown)}`);
    }
  }
}
