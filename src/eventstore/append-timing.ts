import { channel } from 'node:diagnostics_channel';

/**
 * The diagnostics channel each committed append is told on, with how long it took: what a reader of the
 * process's metrics subscribes to. Nothing is measured or sent while no one listens.
 */
export const APPEND_TIMING_CHANNEL = 'workbench.eventstore.append';

/** One committed append: seconds from the call to its commit, and how many events it wrote. */
export interface AppendTiming {
  seconds: number;
  events: number;
}

const appends = channel(APPEND_TIMING_CHANNEL);

/** Tells the channel of an append begun at `startedMs` (performance.now()) and committed now. */
export function tellAppendTiming(startedMs: number, events: number): void {
  if (!appends.hasSubscribers) return;
  appends.publish({ seconds: (performance.now() - startedMs) / 1000, events } satisfies AppendTiming);
}
