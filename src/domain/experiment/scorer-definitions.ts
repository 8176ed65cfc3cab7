import { z } from 'zod';
import { modelIdSchema } from '../model-choice';

/** How many scorers one experiment may name. */
export const MAX_SCORERS = 20;
/** A scorer's name, shown as a column of the compare grid. */
export const SCORER_NAME_MAX_LENGTH = 100;
/** A pattern of a `regex` scorer: short, and run only by a matcher without backtracking. */
export const SCORER_PATTERN_MAX_LENGTH = 500;
/** The text a `contains` scorer looks for. */
export const SCORER_TEXT_MAX_LENGTH = 2_000;
/** A judge's prompt, as long as a step's. */
export const JUDGE_PROMPT_MAX_LENGTH = 20_000;
/** A `jsonSchema` scorer's schema, as JSON text. */
export const SCORER_SCHEMA_MAX_BYTES = 20_000;
/**
 * How deep a `jsonSchema` scorer's schema may nest objects and arrays: far past any schema a person writes,
 * and shallow enough for the code that reads it (JSON text, ajv) to walk it without running out of stack.
 */
export const SCORER_SCHEMA_MAX_DEPTH = 64;

const name = z.string().trim().min(1).max(SCORER_NAME_MAX_LENGTH);
/** Which step's output a scorer reads: a step id of the flow; left out, the flow's last step. */
const stepId = z.string().min(1).max(100);

/**
 * A scorer an experiment runs over each run's outputs. Code scorers (`equals`, `contains`, `regex`,
 * `jsonSchema`, `length`, `similarity`) need no model; a `judge` is an ordinary prompt step with its own model,
 * its calls counted to the experiment. `equals` and `similarity` compare with the dataset item's `expected`
 * text of the step, and score nothing for an item without one. A field its type does not have is refused
 * (a misspelt `max` would leave the scorer without it).
 */
export const scorerDefinition = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('equals'),
    name: name.optional(),
    stepId: stepId.optional(),
    caseSensitive: z.boolean().optional(),
  }),
  z.strictObject({
    type: z.literal('contains'),
    name: name.optional(),
    stepId: stepId.optional(),
    text: z.string().min(1).max(SCORER_TEXT_MAX_LENGTH),
  }),
  z.strictObject({
    type: z.literal('regex'),
    name: name.optional(),
    stepId: stepId.optional(),
    pattern: z.string().min(1).max(SCORER_PATTERN_MAX_LENGTH),
    flags: z
      .string()
      .regex(/^[ims]{0,3}$/)
      .optional(),
  }),
  z.strictObject({
    type: z.literal('jsonSchema'),
    name: name.optional(),
    stepId: stepId.optional(),
    schema: z.record(z.string(), z.unknown()),
  }),
  z.strictObject({
    type: z.literal('length'),
    name: name.optional(),
    stepId: stepId.optional(),
    min: z.number().int().min(0).max(1_000_000).optional(),
    max: z.number().int().min(0).max(1_000_000).optional(),
  }),
  z.strictObject({
    type: z.literal('similarity'),
    name: name.optional(),
    stepId: stepId.optional(),
    threshold: z.number().min(0).max(1).optional(),
  }),
  z.strictObject({
    type: z.literal('judge'),
    name: name.optional(),
    stepId: stepId.optional(),
    model: modelIdSchema,
    prompt: z.string().trim().min(1).max(JUDGE_PROMPT_MAX_LENGTH),
  }),
]);
export type ScorerDefinition = z.infer<typeof scorerDefinition>;

/**
 * A scorer's name, the column of the compare grid: its own, or else its type, with the step it reads when it
 * names one (`contains`, `contains (step-id)`). Names are unique within an experiment.
 */
export const scorerName = (definition: ScorerDefinition): string =>
  definition.name?.trim() ||
  (definition.stepId ? `${definition.type} (${definition.stepId})` : definition.type);
export const SCORER_TYPES = [
  'equals',
  'contains',
  'regex',
  'jsonSchema',
  'length',
  'similarity',
  'judge',
] as const;
export type ScorerType = (typeof SCORER_TYPES)[number];

/** What a score is of: a whole run (an execution) or one step's result in it. */
export const SCORE_TARGETS = ['execution', 'step'] as const;
export const SCORE_KINDS = ['number', 'boolean', 'category', 'text'] as const;
/** Who gave it: a person's score, a review decision, a judge, or a code scorer. */
export const SCORE_SOURCES = ['human', 'review', 'judge', 'code'] as const;

/** What judges' model calls took: counted to the experiment (never to a run of the flow). */
export interface JudgeUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
}

/** The sum of judges' usages. */
export const addedJudgeUsage = (a: JudgeUsage, b: JudgeUsage): JudgeUsage => ({
  calls: a.calls + b.calls,
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

export const NO_JUDGE_USAGE: JudgeUsage = { calls: 0, inputTokens: 0, outputTokens: 0 };

/** Every score, whoever gives it, has this one shape. */
export interface Score {
  target: (typeof SCORE_TARGETS)[number];
  /** The execution scored, and for a step score its step. */
  executionId: string;
  stepId: string | null;
  name: string;
  kind: (typeof SCORE_KINDS)[number];
  value: number | boolean | string;
  source: (typeof SCORE_SOURCES)[number];
  /** The person (their user id), the judge's model, or the scorer's type. */
  by: string;
  comment: string | null;
}
