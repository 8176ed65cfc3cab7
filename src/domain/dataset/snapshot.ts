import { hasFields, type StateSnapshot } from '../snapshot';
import type { DatasetState } from './events';

/** A dataset's state as a snapshot: it is JSON already. */
export const datasetSnapshot: StateSnapshot<DatasetState> = {
  // Bump with any change to DatasetState or to evolve (see StateSnapshot.shape and snapshot.test.ts).
  shape: 'dataset.1',
  encode: (state) => state,
  decode: (json) =>
    hasFields(json, {
      datasetId: 'string|null',
      flowId: 'string|null',
      workspaceId: 'string|null',
      name: 'string',
      createdBy: 'string|null',
      items: 'array',
      totalChars: 'number',
      createdAt: 'string|null',
      updatedAt: 'string|null',
    })
      ? (json as unknown as DatasetState)
      : null,
};
