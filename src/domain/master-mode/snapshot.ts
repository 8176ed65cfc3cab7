import { hasFields, isObject, type StateSnapshot } from '../snapshot';
import type { MasterState } from './events';

/**
 * A master mode session's state as a snapshot. It is JSON already (its runs by id a plain object, whose
 * key order JSON keeps), so it is stored as it is.
 */
export const masterSnapshot: StateSnapshot<MasterState> = {
  // Bump with any change to MasterState or to evolve (see StateSnapshot.shape and snapshot.test.ts).
  shape: 'master.1',
  encode: (state) => state,
  decode: (json) =>
    hasFields(json, {
      ownerId: 'string|null',
      deleted: 'boolean',
      running: 'object',
      lastEventAt: 'string|null',
    }) &&
    (json.executeAll === null || isObject(json.executeAll))
      ? (json as unknown as MasterState)
      : null,
};
