import type { Sql } from 'postgres';
import type { Checkpoint } from '../eventstore';
import { type ProjectableEvent, projectStreams } from './project-execution-events';
import { projectMasterStreams } from './project-master-events';

export const READ_MODEL_TABLES = [
  'executions',
  'step_results',
  'ai_request_logs',
  'user_usage',
  'rejected_ideas',
  'master_mode_runs',
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
    const streams = eventsByStream(events);
    await sql.begin(async (tx) => {
      await projectStreams(tx, streams);
      await projectMasterStreams(tx, streams);
    });
    replayed += events.length;
    cursor = checkpoint;
  }
}

/**
 * A batch's events by stream, each stream's in log order. Read models are per execution, so streams may
 * be written in any order relative to each other.
 */
function eventsByStream(events: ProjectableEvent[]): ProjectableEvent[][] {
  const streams = new Map<string, ProjectableEvent[]>();
  for (const event of events) {
    const stream = streams.get(event.streamId);
    if (stream) stream.push(event);
    else streams.set(event.streamId, [event]);
  }
  return [...streams.values()];
}
