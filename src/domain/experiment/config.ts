import { z } from 'zod';
import { PRODUCT_RULE } from '../errors';
import { oneOf } from '../filled-text';
import { MAX_FLOW_STEPS, type StepSnapshot } from '../flow';
import { modelIdSchema } from '../model-choice';
import { requestedId } from '../record-id';
import { checkScorerDefinitions } from './code-scorers';
import { MAX_SCORERS, type ScorerDefinition, scorerDefinition } from './scorer-definitions';

/** How many times each dataset item runs in one experiment. */
export const MIN_REPETITIONS = 1;
export const MAX_REPETITIONS = 10;
export const DEFAULT_REPETITIONS = 1;
/** How many runs of one experiment may be in flight at once, across every server process. */
export const MIN_CONCURRENCY = 1;
export const MAX_CONCURRENCY = 20;
export const DEFAULT_CONCURRENCY = 4;
/**
 * Runs of one experiment (items times repetitions): every run is named in the event that starts it, and its
 * state holds each, so both stay well under what one event may hold.
 */
export const MAX_EXPERIMENT_RUNS = 5_000;

/**
 * How a step's results are approved in an experiment's runs: `human` by the reviewers its review rule names
 * (the experiment waits for them), `auto` its first result at once, `judge` when the step's judge scorer
 * passes it (and by a person when it does not). A step the settings do not name is `human`.
 */
export const REVIEW_MODES = ['human', 'auto', 'judge'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];
export const DEFAULT_REVIEW_MODE: ReviewMode = 'human';

const stepIdKey = z.string().min(1).max(100);
const uuid = (field: string) => requestedId(`${field} phải là một uuid`);
const version = (field: string) =>
  z
    .number({ error: `${field} phải là một số nguyên dương` })
    .int(`${field} phải là một số nguyên dương`)
    .min(1, `${field} phải là một số nguyên dương`);
const between = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} phải là số nguyên từ ${min} đến ${max}` })
    .int(`${field} phải là số nguyên từ ${min} đến ${max}`)
    .min(min, `${field} phải là số nguyên từ ${min} đến ${max}`)
    .max(max, `${field} phải là số nguyên từ ${min} đến ${max}`);

/** Every scorer's own problems (checkScorerDefinitions), as issues of the request's `scorers`. */
const scorersFit = (config: { scorers: readonly ScorerDefinition[] }, context: z.RefinementCtx) => {
  for (const message of checkScorerDefinitions(config.scorers))
    context.addIssue({ code: 'custom', path: ['scorers'], message, params: PRODUCT_RULE });
};

/** A setting per step names at most as many steps as a flow may have: the refinement and its refusal. */
const forAtMostEveryStep = (field: string) =>
  [
    (record: Record<string, unknown>) => Object.keys(record).length <= MAX_FLOW_STEPS,
    `${field}: tối đa ${MAX_FLOW_STEPS} step`,
  ] as const;

const configFields = {
  /** Step id -> the model that answers it in every run (`provider:name`). */
  models: z
    .record(stepIdKey, modelIdSchema)
    .refine(...forAtMostEveryStep('models'))
    .default({}),
  /** Step id -> how its results are approved; a step not named: DEFAULT_REVIEW_MODE. */
  review: z
    .record(stepIdKey, z.enum(REVIEW_MODES, { error: oneOf(REVIEW_MODES) }))
    .refine(...forAtMostEveryStep('review'))
    .default({}),
  scorers: z.array(scorerDefinition).max(MAX_SCORERS, `scorers: tối đa ${MAX_SCORERS} scorer`).default([]),
  repetitions: between('repetitions', MIN_REPETITIONS, MAX_REPETITIONS).default(DEFAULT_REPETITIONS),
  concurrency: between('concurrency', MIN_CONCURRENCY, MAX_CONCURRENCY).default(DEFAULT_CONCURRENCY),
};

/**
 * An experiment's settings, fixed once it starts: the model of each step that should not run on its own, the
 * review mode of each step, the scorers, how often each item runs and how many runs go at once.
 */
export const experimentConfigSchema = z.strictObject(configFields).superRefine(scorersFit);
/** The settings as an experiment records them: every default filled in. */
export type ExperimentConfig = z.output<typeof experimentConfigSchema>;

/**
 * `POST /api/experiments`: the flow version and the dataset (at its current version when none is named) to
 * run, the experiment to compare with (its baseline), and the settings.
 */
export const startExperimentRequestSchema = z
  .strictObject({
    flowId: uuid('flowId'),
    flowVersion: version('flowVersion'),
    datasetId: uuid('datasetId'),
    datasetVersion: version('datasetVersion').optional(),
    baselineId: uuid('baselineId').nullable().optional(),
    ...configFields,
  })
  .superRefine(scorersFit);
export type StartExperimentRequest = z.output<typeof startExperimentRequestSchema>;

/** The settings of a request, as the experiment records them. */
export const configOfRequest = ({
  models,
  review,
  scorers,
  repetitions,
  concurrency,
}: StartExperimentRequest): ExperimentConfig => ({ models, review, scorers, repetitions, concurrency });

/** A dataset item as an experiment plans its runs: its id, and whether it is archived at the pinned version. */
export interface DatasetItemRef {
  id: string;
  archived?: boolean | undefined;
}

export const CONFIG_MESSAGES = {
  noSteps: 'Phiên bản flow này không có bước nào để chạy',
  noItems: 'Dataset không có mục nào (chưa lưu trữ) ở phiên bản đã chọn',
  tooManyRuns: (runs: number) =>
    `Experiment sẽ có ${runs} lần chạy (số mục × repetitions); tối đa ${MAX_EXPERIMENT_RUNS}`,
  unknownStep: (field: string, stepId: string) =>
    `${field}: bước ${stepId} không có trong phiên bản flow đã chọn`,
  judgeWithoutScorer: (stepId: string) =>
    `review: bước ${stepId} được duyệt bằng judge nhưng không có scorer judge nào đọc bước này`,
} as const;

/**
 * What in the settings does not fit the flow version and the dataset version they run: each problem once,
 * in Vietnamese, the field first (none: the settings are good). The schema has checked their shape; these
 * are the rules that need the steps and the items.
 */
export function checkExperimentConfig(
  config: ExperimentConfig,
  flowVersionSteps: readonly Pick<StepSnapshot, 'id' | 'order'>[],
  datasetItems: readonly DatasetItemRef[],
): string[] {
  const problems: string[] = [];
  const stepIds = new Set(flowVersionSteps.map((step) => step.id));
  if (stepIds.size === 0) problems.push(CONFIG_MESSAGES.noSteps);
  const items = datasetItems.filter((item) => !item.archived).length;
  if (items === 0) problems.push(CONFIG_MESSAGES.noItems);
  else if (items * config.repetitions > MAX_EXPERIMENT_RUNS)
    problems.push(CONFIG_MESSAGES.tooManyRuns(items * config.repetitions));
  for (const stepId of Object.keys(config.models))
    if (!stepIds.has(stepId)) problems.push(CONFIG_MESSAGES.unknownStep('models', stepId));
  for (const stepId of Object.keys(config.review))
    if (!stepIds.has(stepId)) problems.push(CONFIG_MESSAGES.unknownStep('review', stepId));
  problems.push(...checkScorerDefinitions(config.scorers, [...stepIds]));
  const lastStepId = lastStepOf(flowVersionSteps)?.id;
  for (const [stepId, mode] of Object.entries(config.review)) {
    if (mode !== 'judge' || !stepIds.has(stepId)) continue;
    const judged = config.scorers.some(
      (scorer) => scorer.type === 'judge' && (scorer.stepId ?? lastStepId) === stepId,
    );
    if (!judged) problems.push(CONFIG_MESSAGES.judgeWithoutScorer(stepId));
  }
  return problems;
}

/** The step run last (the highest order; of steps sharing it, the flow's last): a scorer's step by default. */
export function lastStepOf<Step extends Pick<StepSnapshot, 'order'>>(
  steps: readonly Step[],
): Step | undefined {
  let last: Step | undefined;
  for (const step of steps) if (last === undefined || step.order >= last.order) last = step;
  return last;
}

/** The review mode of a step in an experiment of these settings. */
export const reviewModeOf = (config: Pick<ExperimentConfig, 'review'>, stepId: string): ReviewMode =>
  config.review[stepId] ?? DEFAULT_REVIEW_MODE;
