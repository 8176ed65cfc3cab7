/** Why a run's model call is aborted: the user's Stop, or this process stopping (the run is interrupted). */
export type AbortReason = 'stopped' | 'interrupted';

/**
 * The model calls this process is making, by execution (or master mode session) and run, so a Stop can
 * abort them and the crash sweep leaves them alone.
 */
export class RunRegistry {
  private readonly running = new Map<string, Map<string, AbortController>>();

  /** A controller for the run; call the returned function when the run has ended. */
  track(
    ownerId: string,
    runId: string,
  ): { signal: AbortSignal; abort: (reason?: AbortReason) => void; untrack: () => void } {
    const controller = new AbortController();
    const runs = this.running.get(ownerId) ?? new Map<string, AbortController>();
    runs.set(runId, controller);
    this.running.set(ownerId, runs);
    return {
      signal: controller.signal,
      abort: (reason: AbortReason = 'stopped') => controller.abort(reason),
      untrack: () => {
        runs.delete(runId);
        if (runs.size === 0 && this.running.get(ownerId) === runs) this.running.delete(ownerId);
      },
    };
  }

  isRunning(ownerId: string, runId: string): boolean {
    return this.running.get(ownerId)?.has(runId) ?? false;
  }

  get size(): number {
    let runs = 0;
    for (const owned of this.running.values()) runs += owned.size;
    return runs;
  }

  /** Aborts the calls of one execution or session, or all; the signal's reason says why. */
  abortAll(ownerId?: string, reason: AbortReason = 'stopped') {
    const owners = ownerId === undefined ? [...this.running.values()] : [this.running.get(ownerId)];
    for (const runs of owners) for (const controller of runs?.values() ?? []) controller.abort(reason);
  }
}
