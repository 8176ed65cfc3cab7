import { inExecutionOrder, sameSteps, snapshotOf } from '../execution/step-snapshots';
import type { StepSnapshot } from '../flow';
import { type DatasetItemRef, type ExperimentConfig, reviewModeOf } from './config';

/** One run of an experiment: a dataset item, in one of its repetitions (1 to `repetitions`). */
export interface PlannedRun {
  runKey: string;
  itemId: string;
  repetition: number;
  /**
   * The baseline's execution of the same item and repetition, whose approved results of the steps before the
   * experiment's `reuseBefore` the run takes instead of calling the model. Absent: the run runs every step.
   */
  baselineExecutionId?: string;
}

/** A run's key: its item and its repetition, the same in every experiment over the dataset. */
export const runKeyOf = (itemId: string, repetition: number) => `${itemId}#${repetition}`;

/**
 * The runs of an experiment, in the order they start: the first repetition of every item (in the dataset's
 * order), then the second, and so on, so a stopped experiment has run as many items as it could. Archived
 * items do not run; an item listed twice runs once.
 */
export function planRuns(items: readonly DatasetItemRef[], repetitions: number): PlannedRun[] {
  const itemIds = [...new Set(items.filter((item) => !item.archived).map((item) => item.id))];
  const runs: PlannedRun[] = [];
  for (let repetition = 1; repetition <= repetitions; repetition++)
    for (const itemId of itemIds) runs.push({ runKey: runKeyOf(itemId, repetition), itemId, repetition });
  return runs;
}

/**
 * The steps as an experiment's runs execute them: in execution order, each with the model the experiment
 * gives it (else its own), and without its review rule, which the experiment's review mode replaces.
 */
export function stepsAsRun(
  steps: readonly StepSnapshot[],
  models: ExperimentConfig['models'],
): StepSnapshot[] {
  return inExecutionOrder(steps).map((step) => {
    const { review: _review, model, ...rest } = snapshotOf(step);
    const chosen = models[step.id] ?? model;
    return chosen ? { ...rest, model: chosen } : rest;
  });
}

/**
 * The steps as a run's execution records them: as stepsAsRun gives them, with the review rule kept on the
 * steps whose review mode is `human` (their reviewers decide, under the step's own rule); `auto` and `judge`
 * steps have none, so the run's own approval decides them.
 */
export function stepsToExecute(steps: readonly StepSnapshot[], config: ExperimentConfig): StepSnapshot[] {
  const asRun = stepsAsRun(steps, config.models);
  return asRun.map((step) => {
    const review = steps.find((each) => each.id === step.id)?.review;
    return review && reviewModeOf(config, step.id) === 'human' ? { ...step, review } : step;
  });
}

/**
 * The index (in execution order) of the first step whose content differs between the two step lists: its
 * id, place, prompt, model, output mode, choices, inputs, loop settings or name (the fields an execution
 * records of a step, as sameSteps compares them). The length of the shorter list when one is the other's
 * beginning, and of both when they are the same.
 */
export function firstChangedStep(before: readonly StepSnapshot[], after: readonly StepSnapshot[]): number {
  const shorter = Math.min(before.length, after.length);
  for (let i = 0; i < shorter; i++) if (!sameSteps([before[i]!], [after[i]!])) return i;
  return shorter;
}

/** What a new experiment knows of the experiment it is compared with. */
export interface BaselineFacts {
  experimentId: string;
  flowId: string;
  datasetId: string;
  /** The baseline's flow version's steps (any order), and its settings: its runs ran them so. */
  steps: readonly StepSnapshot[];
  config: Pick<ExperimentConfig, 'models'>;
  /** Its runs that completed, each with its execution. */
  completedRuns: readonly { runKey: string; executionId: string }[];
}

/**
 * How an experiment reuses its baseline's work: from which step its runs start (the steps before it are taken
 * from the baseline's run of the same item and repetition), and which baseline execution each run takes them
 * from. The first step that differs (as the runs execute it) runs again, and every step after it, since its
 * output feeds theirs; the last step always runs, so a run is never all reused. No reuse when the baseline
 * is of another flow or dataset, when the first step differs, for a run whose baseline run did not complete,
 * and for an item whose content changed between the two dataset versions (`changedItemIds`).
 */
export function planReuse(args: {
  flowId: string;
  datasetId: string;
  steps: readonly StepSnapshot[];
  config: Pick<ExperimentConfig, 'models'>;
  runs: readonly PlannedRun[];
  baseline: BaselineFacts;
  changedItemIds?: readonly string[];
}): { reuseBefore: string | null; runs: PlannedRun[] } {
  const { baseline, runs } = args;
  const none = { reuseBefore: null, runs: [...runs] };
  if (baseline.flowId !== args.flowId || baseline.datasetId !== args.datasetId) return none;
  const steps = stepsAsRun(args.steps, args.config.models);
  const changed = firstChangedStep(stepsAsRun(baseline.steps, baseline.config.models), steps);
  const from = Math.min(changed, steps.length - 1);
  if (from <= 0) return none;
  const changedItems = new Set(args.changedItemIds ?? []);
  const sources = new Map(baseline.completedRuns.map((run) => [run.runKey, run.executionId]));
  return {
    reuseBefore: steps[from]!.id,
    runs: runs.map((run) => {
      const source = changedItems.has(run.itemId) ? undefined : sources.get(run.runKey);
      return source === undefined ? run : { ...run, baselineExecutionId: source };
    }),
  };
}

/**
 * The ids of the steps a run reusing its baseline takes as done: those before `reuseBefore`, in execution
 * order. None when the experiment reuses nothing.
 */
export function reusedStepIds(stepIds: readonly string[], reuseBefore: string | null): string[] {
  if (reuseBefore === null) return [];
  const from = stepIds.indexOf(reuseBefore);
  return from === -1 ? [] : stepIds.slice(0, from);
}

/**
 * Whether a baseline execution has an approved result of every step to reuse: only then may a run start from
 * it (the execution's StartExecutionFrom refuses otherwise), and else it runs every step.
 */
export const canReuseFrom = (
  results: readonly { stepId: string; approved: boolean }[],
  stepIds: readonly string[],
): boolean =>
  stepIds.every((stepId) => results.some((result) => result.stepId === stepId && result.approved));
