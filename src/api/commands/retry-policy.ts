/** How the command handler tries a command again when another command moved its stream on first. */
export interface RetryPolicy {
  /** Tries after the first, on conflicts, before the conflict is the caller's (409, retryable). */
  conflictRetries: number;
  /** The longest random wait before another try; the wait grows with the tries up to it. */
  maxBackoffMs: number;
  /**
   * How long a command recording an outcome (a model's answer) is tried again before it gives up: far past
   * any real contention. The crash sweep waits this long, and more, before it takes such a run for lost.
   */
  outcomeRetryMs: number;
}

/** The policy of the server's command handler. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  conflictRetries: 5,
  maxBackoffMs: 100,
  outcomeRetryMs: 60_000,
});
