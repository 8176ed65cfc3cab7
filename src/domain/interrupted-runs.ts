/** What a run (or an Execute All) a crash left unfinished is failed with. */
export const INTERRUPTED = 'interrupted';

/**
 * What the server process sweeping for unfinished runs knows. Each server process has an instance number
 * for its whole life, and a run records the instance making its model call; the database tells which
 * instances have died (see src/api/runtime/server-instance.ts).
 */
export interface CrashSweepFacts {
  /**
   * The database's now less the model timeout: a run started before it can no longer be waiting for its model.
   * Every process reads the same clock, so none takes another's live run for older than it is.
   */
  startedBefore: string;
  /**
   * Further back by the longest a live process takes to record a run's outcome: a run started before it is
   * no live process's either, whatever the locks say (the lock of a process whose machine vanished is held
   * until PostgreSQL notices its connection is dead; a hung process holds its own).
   */
  abandonedBefore: string;
  /** The sweeping process's own instance. */
  thisInstance: number;
  /** Instances of the runs looked at whose process has died. */
  goneInstances: number[];
}

/** A run as the sweep sees it; no instance on runs recorded before runs named their instance. */
export interface UnfinishedRun {
  startedAt: string;
  instanceId?: number | null | undefined;
}

/**
 * Whether a run with no outcome was left by a crash. A run of an instance that has died: at once, its model
 * call went with its process. A run of another live instance: that process ends its own runs, so only once
 * it is abandoned. A run of this instance it is not making, or one that names no instance: once older than
 * the model timeout (a run of this instance is not tracked yet between its start being recorded and its
 * call being made).
 */
export function isInterrupted(run: UnfinishedRun, makingHere: boolean, facts: CrashSweepFacts): boolean {
  if (makingHere) return false;
  const instance = run.instanceId ?? null;
  if (instance !== null && facts.goneInstances.includes(instance)) return true;
  if (instance !== null && instance !== facts.thisInstance) return run.startedAt < facts.abandonedBefore;
  return run.startedAt < facts.startedBefore;
}
