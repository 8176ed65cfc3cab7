import type { DatasetCommand, DatasetContext } from '../../domain/dataset/commands';
import { decider } from '../../domain/dataset/decider';
import { DATASET_STREAM_PREFIX, type DatasetEvent, type DatasetState } from '../../domain/dataset/events';
import { datasetSnapshot } from '../../domain/dataset/snapshot';
import { datasetStatements } from '../../projections/project-dataset-events';
import type { Aggregate } from '../commands/command-handler';

/** Whose a dataset is: its flow's, as the flow's row holds it now (its owner, and its workspace or null). */
export interface FlowHolder {
  ownerId: string;
  workspaceId: string | null;
}

/**
 * Datasets as the command handler sees them: `dataset-<id>` streams, the dataset decider, `datasets` and
 * `dataset_items` projected. A dataset lives where its flow lives, wherever the flow has moved since: the
 * access rule is asked of the flow's holder (`kind: 'flow'`), read with the flow's row just before the
 * command (`heldBy`). Reading and changing the dataset need what reading and changing the flow need.
 */
export const datasetAggregate: Aggregate<DatasetState, DatasetCommand, DatasetEvent, DatasetContext> = {
  streamType: 'dataset',
  streamPrefix: DATASET_STREAM_PREFIX,
  name: 'Dataset',
  decider,
  snapshot: datasetSnapshot,
  recordsOutcome: () => false,
  kind: 'flow',
  // Without the flow's holder, nobody but the server may touch it: see heldBy.
  holderOf: (state) => (state.datasetId === null ? undefined : { ownerId: null, workspaceId: null }),
  actionOf: () => 'change',
  project: (tx, recorded) => datasetStatements(tx, recorded),
};

/** The dataset aggregate with its flow's holder: what the command handler asks the access rule of. */
export const heldBy = (
  holder: FlowHolder,
): Aggregate<DatasetState, DatasetCommand, DatasetEvent, DatasetContext> => ({
  ...datasetAggregate,
  holderOf: (state) => (state.datasetId === null ? undefined : holder),
});
