import { hasFields, type StateSnapshot } from '../snapshot';
import type { FlowState } from './events';

/** A flow's state as a snapshot. It is JSON already, so it is stored as it is. */
export const flowSnapshot: StateSnapshot<FlowState> = {
  // Bump with any change to FlowState or to evolve (see StateSnapshot.shape and snapshot.test.ts).
  shape: 'flow.1',
  encode: (state) => state,
  decode: (json) =>
    hasFields(json, {
      flowId: 'string|null',
      userId: 'string|null',
      workspaceId: 'string|null',
      createdAt: 'string|null',
      updatedAt: 'string|null',
      deleted: 'boolean',
      details: 'object',
      steps: 'array',
    })
      ? (json as unknown as FlowState)
      : null,
};
