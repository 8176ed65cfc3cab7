import type { Sql } from 'postgres';
import type { Checkpoint } from '../eventstore';
import { executionStreamsChanges, type ProjectableEvent } from './project-execution-events';
import { FlowStreamsRebuild } from './project-flow-events';
import { masterStreamsChanges } from './project-master-events';
import { ReadModelBatch } from './read-model-batch';

export const READ_MODEL_TABLES = [
  'executions',
  'step_results',
  'ai_request_logs',
  'user_usage',
  'rejected_ideas',
  'master_mode_runs',
  'master_mode_execute_alls',
] as const;

/**
 * A page of the gap-safe feed of every stream, strictly after the cursor (null: from the start), and whether
 * committed events wait behind a transaction still running (EventStore.readFeed).
 */
export type ReadAllBatch = (
  after: Checkpoint | null,
  limit: number,
) => Promise<{ events: ProjectableEvent[]; checkpoint: Checkpoint | null; heldBack: boolean }>;

/** How long an empty page waits before asking again while committed events are held back. */
const HELD_BACK_RETRY_MS = 20;

/**
 * Empties the read models and replays the whole log into them, one transaction per batch (never one
 * giant transaction). A batch's changes are the inline projectors' own, folded in memory and written with
 * multi-row statements (see ReadModelBatch). Returns the number of events replayed.
 *
 * `flows` and `steps` are not emptied: other tables hold the user's own records of a flow (its suggestions,
 * its chat context) and would go with its row. Each flow's row is written over, and its steps replaced, from
 * its stream instead.
 */
export async function rebuildProjections(sql: Sql, readAll: ReadAllBatch, batchSize = 1000): Promise<number> {
  let [, page] = await Promise.all([
    sql.unsafe(`TRUNCATE ${READ_MODEL_TABLES.join(', ')}`),
    readAll(null, batchSize),
  ]);
  let replayed = 0;
  const flows = new FlowStreamsRebuild();
  for (;;) {
    if (page.events.length === 0) {
      // The end of the log, unless committed events wait behind a transaction still running (of any
      // database of the server): they belong in the rebuild, so wait for them.
      if (!page.heldBack) return replayed;
      await new Promise((resolve) => setTimeout(resolve, HELD_BACK_RETRY_MS));
      page = await readAll(page.checkpoint, batchSize);
      continue;
    }
    // Reading the log does not depend on the read models: the next page is read while this one is written.
    const next = readAll(page.checkpoint, batchSize);
    try {
      await writeBatch(sql, eventsByStream(page.events), flows);
    } catch (error) {
      next.catch(() => {});
      throw error;
    }
    replayed += page.events.length;
    page = await next;
  }
}

function writeBatch(sql: Sql, streams: ProjectableEvent[][], flows: FlowStreamsRebuild) {
  return sql.begin(async (tx) => {
    // Flows first: the batch's other rows may name them.
    await flows.project(tx, streams);
    const batch = new ReadModelBatch();
    batch.add(await executionStreamsChanges(tx, streams));
    batch.add(masterStreamsChanges(streams));
    await batch.write(tx);
  });
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
