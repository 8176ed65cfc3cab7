/** Why a run's model call is aborted: the user's Stop, or this process stopping (the run is interrupted). */
export type AbortReason = 'stopped' | 'interrupted';

/** How many executions' latest stop positions are remembered (the oldest are forgotten first). */
const MAX_REMEMBERED_STOPS = 10_000;

interface TrackedRun {
  controller: AbortController;
  /** The stream position of the run's start event. */
  startedAt: number;
}

/**
 * The model calls this process is making, by execution (or master mode session) and run, so a Stop can
 * abort them and the crash sweep leaves them alone. A Stop aborts the runs started before it, at its stream
 * position: one seen (from this process or, through the log tailer, another) before its run was tracked
 * aborts the run as it is tracked, and a late-seen Stop never aborts a run started after a Reset.
 */
export class RunRegistry {
  private readonly running = new Map<string, Map<string, TrackedRun>>();
  /** The position of the latest Stop seen, by execution. */
  private readonly stops = new Map<string, number>();
  /** This process has cut its calls off: a call begun after that is cut off as it begins. */
  private interrupting = false;

  /**
   * A controller for the run whose start event is at `startedAt` in its stream; call `untrack` when the run
   * has ended.
   */
  track(
    ownerId: string,
    runId: string,
    startedAt: number,
  ): { signal: AbortSignal; abort: (reason?: AbortReason) => void; untrack: () => void } {
    const controller = new AbortController();
    const runs = this.running.get(ownerId) ?? new Map<string, TrackedRun>();
    runs.set(runId, { controller, startedAt });
    this.running.set(ownerId, runs);
    if ((this.stops.get(ownerId) ?? 0) > startedAt) controller.abort('stopped');
    else if (this.interrupting) controller.abort('interrupted');
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

  /** The execution was stopped at `position` of its stream: the runs started before it are aborted. */
  stopped(ownerId: string, position: number) {
    if ((this.stops.get(ownerId) ?? 0) >= position) return;
    this.stops.delete(ownerId);
    if (this.stops.size >= MAX_REMEMBERED_STOPS) this.stops.delete(this.stops.keys().next().value!);
    this.stops.set(ownerId, position);
    for (const run of this.running.get(ownerId)?.values() ?? [])
      if (run.startedAt < position) run.controller.abort('stopped');
  }

  /**
   * This process is stopping: every call is aborted, and its run is recorded as interrupted; so is any call
   * begun from now on (a run another part of the process starts meanwhile goes on elsewhere, not here).
   */
  interruptAll() {
    this.interrupting = true;
    for (const runs of this.running.values())
      for (const run of runs.values()) run.controller.abort('interrupted');
  }
}
