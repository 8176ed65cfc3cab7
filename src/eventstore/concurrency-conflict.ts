import type { ExpectedVersion } from './types';

/** The stream moved on since the caller read it: reload, decide again, retry. */
export class ConcurrencyConflict extends Error {
  override readonly name = 'ConcurrencyConflict';

  constructor(
    readonly streamId: string,
    readonly expectedVersion: ExpectedVersion,
    readonly actualVersion: number,
  ) {
    super(`Stream ${streamId} is at version ${actualVersion}, expected ${expectedVersion}`);
  }
}
