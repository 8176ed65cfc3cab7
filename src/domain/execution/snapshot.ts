import { hasFields, type StateSnapshot } from '../snapshot';
import type { ExecutionState } from './types';

/**
 * An execution's state as a snapshot. It is JSON already (strings, numbers, booleans, arrays, plain objects;
 * an optional field is absent, never undefined, since evolve spreads it in only when set), so it is stored
 * as it is.
 */
export const executionSnapshot: StateSnapshot<ExecutionState> = {
  // Bump with any change to ExecutionState or to evolve (see StateSnapshot.shape and snapshot.test.ts).
  shape: 'execution.3',
  encode: (state) => state,
  decode: (json) =>
    hasFields(json, {
      exists: 'boolean',
      id: 'string',
      userId: 'string',
      flowId: 'string',
      workspaceId: 'string|null',
      status: 'string',
      currentStep: 'number',
      steps: 'array',
      flowVersion: 'number|null',
      experimentId: 'string|null',
      executionQueue: 'array',
      executionCache: 'array',
      results: 'array',
      runs: 'array',
      reviews: 'array',
      startedAt: 'string',
      completedAt: 'string|null',
    })
      ? (json as unknown as ExecutionState)
      : null,
};
