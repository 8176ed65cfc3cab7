import { hasFields, isObject, type StateSnapshot } from '../snapshot';
import type { ExperimentState } from './events';

/**
 * An experiment's state as a snapshot. It is JSON already (its runs an array in the plan's order, its
 * settings as the starting event recorded them), so it is stored as it is.
 */
export const experimentSnapshot: StateSnapshot<ExperimentState> = {
  // Bump with any change to ExperimentState or to evolve (see StateSnapshot.shape and snapshot.test.ts).
  shape: 'experiment.1',
  encode: (state) => state,
  decode: (json) =>
    hasFields(json, {
      experimentId: 'string|null',
      flowId: 'string',
      flowVersion: 'number',
      datasetId: 'string',
      datasetVersion: 'number',
      stepIds: 'array',
      runs: 'array',
      running: 'number',
      finished: 'number',
      round: 'number',
      rescoredIn: 'object',
      completedAt: 'string|null',
      updatedAt: 'string|null',
    }) &&
    (json.config === null || isObject(json.config)) &&
    (json.stopped === null || isObject(json.stopped)) &&
    (json.runs as unknown[]).every(isObject)
      ? (json as unknown as ExperimentState)
      : null,
};
