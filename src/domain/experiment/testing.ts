import { aStep } from '../execution/testing';
import type { StepSnapshot } from '../flow';
import type { ExperimentCommand, ExperimentContext } from './commands';
import { type ExperimentConfig, experimentConfigSchema } from './config';
import type { ExperimentEvent } from './events';
import { type PlannedRun, planRuns } from './plan';
import type { Score } from './scorer-definitions';

export { aStep };

export const EXPERIMENT_ID = 'experiment-1';
export const FLOW_ID = 'flow-1';
export const DATASET_ID = 'dataset-1';
export const OWNER = 'user-1';
export const NOW = '2026-11-29T10:00:00.000Z';
export const EARLIER = '2026-11-29T09:00:00.000Z';
export const AT_NOW: ExperimentContext = { now: NOW, userId: OWNER };

export const STEPS: StepSnapshot[] = [aStep(1), aStep(2), aStep(3)];
export const ITEMS = [{ id: 'item-a' }, { id: 'item-b' }, { id: 'item-c', archived: true }, { id: 'item-d' }];

/** Settings as the API makes them, defaults filled in. */
export const configOf = (settings: Record<string, unknown> = {}): ExperimentConfig =>
  experimentConfigSchema.parse(settings);

type StartData = Extract<ExperimentCommand, { type: 'StartExperiment' }>['data'];

export const startExperiment = (fields: Partial<StartData> = {}): ExperimentCommand => ({
  type: 'StartExperiment',
  data: {
    experimentId: EXPERIMENT_ID,
    flowId: FLOW_ID,
    flowVersion: 7,
    workspaceId: null,
    datasetId: DATASET_ID,
    datasetVersion: 3,
    config: configOf(),
    steps: STEPS,
    items: ITEMS,
    baseline: null,
    experimentsOfFlow: 0,
    runningOfUser: 0,
    ...fields,
  },
});

/** The started event of an experiment of these settings and runs (by default: one run per item, no reuse). */
export const experimentStarted = (
  fields: {
    config?: ExperimentConfig;
    runs?: PlannedRun[];
    reuseBefore?: string | null;
    baselineId?: string | null;
  } = {},
): ExperimentEvent => {
  const config = fields.config ?? configOf();
  return {
    type: 'ExperimentStarted',
    data: {
      experimentId: EXPERIMENT_ID,
      flowId: FLOW_ID,
      flowVersion: 7,
      workspaceId: null,
      datasetId: DATASET_ID,
      datasetVersion: 3,
      config,
      stepIds: STEPS.map((step) => step.id),
      runs: fields.runs ?? planRuns(ITEMS, config.repetitions),
      baselineId: fields.baselineId ?? null,
      reuseBefore: fields.reuseBefore ?? null,
      startedBy: OWNER,
      at: EARLIER,
    },
  };
};

export const runStarted = (runKey: string, executionId: string, reusedFrom?: string): ExperimentEvent => ({
  type: 'ExperimentRunStarted',
  data: {
    runKey,
    executionId,
    ...(reusedFrom === undefined ? {} : { reusedFrom }),
    instanceId: 1,
    at: EARLIER,
  },
});
export const runFinished = (
  runKey: string,
  executionId: string,
  outcome: 'completed' | 'failed' | 'stopped' = 'completed',
  at = EARLIER,
): ExperimentEvent => ({
  type: 'ExperimentRunFinished',
  data: { runKey, executionId, outcome, at },
});
export const runInterrupted = (runKey: string, executionId: string): ExperimentEvent => ({
  type: 'ExperimentRunInterrupted',
  data: { runKey, executionId, at: EARLIER },
});
export const stopped: ExperimentEvent = { type: 'ExperimentStopped', data: { by: OWNER, at: EARLIER } };
export const completed: ExperimentEvent = { type: 'ExperimentCompleted', data: { at: EARLIER } };

export const startRun = (runKey: string, executionId: string, reusedFrom?: string): ExperimentCommand => ({
  type: 'StartRun',
  data: { runKey, executionId, ...(reusedFrom === undefined ? {} : { reusedFrom }), instanceId: 1 },
});
export const finishRun = (
  runKey: string,
  executionId: string,
  outcome: 'completed' | 'failed' | 'stopped' = 'completed',
): ExperimentCommand => ({ type: 'FinishRun', data: { runKey, executionId, outcome } });

/** A step score by a code scorer. */
export const aScore = (fields: Partial<Score> = {}): Score => ({
  target: 'step',
  executionId: 'execution-a',
  stepId: STEPS[2]!.id,
  name: 'equals',
  kind: 'boolean',
  value: true,
  source: 'code',
  by: 'equals',
  comment: null,
  ...fields,
});
