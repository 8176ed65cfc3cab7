import type { Sql } from 'postgres';
import type { Checkpoint } from '../eventstore';
import { type ProjectableEvent, projectExecutionEvents } from './project-execution-events';

export const READ_MODEL_TABLES = [
  'executions',
  'step_results',
  'ai_request_logs',
  'user_usage',
  'rejected_ideas',
] as const;

/** A page of the gap-safe feed of every stream, strictly after the cursor (null: from the start). */
export type ReadAllBatch = (
  after: Checkpoint | null,
  limit: number,
) => Promise<{ events: ProjectableEvent[]; checkpoint: Checkpoint | null }>;

/**
 * Empties the read models and replays the whole log into them, one transaction per batch (never one
 * giant transaction). Returns the number of events replayed.
 */
export async function rebuildProjections(sql: Sql, readAll: ReadAllBatch, batchSize = 1000): Promise<number> {
  await sql.unsafe(`TRUNCATE ${READ_MODEL_TABLES.join(', ')}`);
  let cursor: Checkpoint | null = null;
  let replayed = 0;
  for (;;) {
    const { events, checkpoint } = await readAll(cursor, batchSize);
    if (events.length === 0) return replayed;
    await sql.begin(async (tx) => {
      for (const run of runsOfOneStream(events)) await projectExecutionEvents(tx, run);
    });
    replayed += events.length;
    cursor = checkpoint;
  }
}

/** Splits a batch into consecutive runs of the same stream, keeping the global order. */
function runsOfOneStream(events: ProjectableEvent[]): ProjectableEvent[][] {
  const runs: ProjectableEvent[][] = [];
  for (const event of events) {
    const last = runs.at(-1);
    if (last && last[0]!.streamId === event.streamId) last.push(event);
    else runs.push([event]);
  }
  return runs;
}
