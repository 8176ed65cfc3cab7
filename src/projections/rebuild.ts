import type { TransactionSql } from 'postgres';
import { type FeedPage, type FeedRead, type ReplayedEvent, SNAPSHOTS_TABLE } from '../eventstore';
import type { EncodedRows } from './copy-rows';
import { datasetStreamsStatements } from './project-dataset-events';
import {
  begunExecutionStreamsChanges,
  EXECUTION_STREAM_PREFIX,
  executionStreamsChanges,
  type ProjectableEvent,
} from './project-execution-events';
import { experimentStreamsStatements } from './project-experiment-events';
import { type FlowBefore, FlowStreamsRebuild } from './project-flow-events';
import { masterStreamsChanges } from './project-master-events';
import { workspaceStreamsStatements } from './project-workspace-events';
import { ReadModelBatch } from './read-model-batch';
import type { ReadModelChange } from './read-model-change';

export const READ_MODEL_TABLES = [
  'executions',
  'step_results',
  'ai_request_logs',
  'user_usage',
  // Counted from user_usage as its rows are inserted (migration 013): emptied with it.
  'user_usage_counts',
  'rejected_ideas',
  'step_reviews',
  'master_mode_runs',
  'master_mode_execute_alls',
  // Replayed from the `workspace-<id>` streams: the workspaces, their members and their invitations.
  'workspaces',
  'workspace_members',
  'workspace_invitations',
  // Replayed from the `dataset-<id>` streams: the datasets of flows and their items.
  'datasets',
  'dataset_items',
  // Replayed from the `experiment-<id>` streams.
  'experiments',
] as const;

/**
 * Where a rebuild writes: the server's pool, or a check's one transaction (its batches then in savepoints,
 * into scratch tables).
 */
export interface RebuildTarget {
  /** A statement of the rebuild's own text. */
  unsafe(text: string): PromiseLike<unknown>;
  /** `work` in a transaction of its own: a batch, written whole or not at all. */
  begin(work: (tx: TransactionSql) => Promise<void>): Promise<unknown>;
}

/** The log a rebuild replays: an EventStore. */
export interface ReplayedLog {
  replayFeed(read: FeedRead): Promise<FeedPage<ReplayedEvent>>;
}

/** How long an empty page waits before asking again while committed events are held back. */
const HELD_BACK_RETRY_MS = 20;

/**
 * Events per batch. Each batch's write costs a dozen round trips whatever its size (a transaction, a COPY
 * per table, the execution rows it continues), so larger batches replay faster, until the log has too few
 * of them for reading and folding one to overlap the writing of another: on a log of 13,564 events, 1,000
 * gave 10-12k events/s, 2,000 12.5k, 4,000 13-15k and 6,000 12-13k.
 */
export const REBUILD_BATCH_SIZE = 4000;

/**
 * The first batch's size; each next one is twice the one before, up to the batch size. Nothing is written
 * before the first batch is read and prepared (a batch of 4,000 took a sixth of a 12,000-event rebuild), and
 * every later read overlaps the write of the batch before.
 */
const FIRST_BATCH_SIZE = 250;

/**
 * Empties the read models (and drops the snapshots) and replays the whole log into them, one transaction
 * per batch (never one giant transaction). A batch's changes are the inline projectors' own, folded in
 * memory and written with COPY (see ReadModelBatch). Returns the number of events replayed.
 *
 * `flows` and `steps` are not emptied: other tables hold the user's own records of a flow (its suggestions,
 * its chat context) and would go with its row. Each flow's row is written over, and its steps replaced, from
 * its stream instead.
 */
export async function rebuildProjections(
  sql: RebuildTarget,
  log: ReplayedLog,
  batchSize = REBUILD_BATCH_SIZE,
): Promise<number> {
  let size = Math.min(FIRST_BATCH_SIZE, batchSize);
  let [, page] = await Promise.all([
    // The aggregates' snapshots go too: a cache of folds, written again by the loads and appends that follow
    // (a rebuild is what an operator runs after evolve or the log changed).
    sql.unsafe(`TRUNCATE ${[...READ_MODEL_TABLES, SNAPSHOTS_TABLE].join(', ')}`),
    log.replayFeed({ after: null, limit: size }),
  ]);
  let replayed = 0;
  const flows = new FlowStreamsRebuild();
  let writing = settled(Promise.resolve());
  for (;;) {
    if (page.events.length === 0) {
      await writing.done();
      // The end of the log, unless committed events wait behind a transaction still running (of any
      // database of the server): they belong in the rebuild, so wait for them.
      if (!page.heldBack) return replayed;
      await new Promise((resolve) => setTimeout(resolve, HELD_BACK_RETRY_MS));
      page = await log.replayFeed({ after: page.checkpoint, limit: size });
      continue;
    }
    // Neither reading the log nor preparing a batch depends on the batch before: both go on while it is written.
    size = Math.min(size * 2, batchSize);
    const next = settled(log.replayFeed({ after: page.checkpoint, limit: size }));
    try {
      const batch = prepareBatch(page.events, flows);
      await writing.done();
      writing = settled(writeBatch(sql, batch));
    } catch (error) {
      await Promise.allSettled([next.done(), writing.done()]);
      throw error;
    }
    replayed += page.events.length;
    page = await next.done();
  }
}

/** A promise whose failure is held until asked for with done(), so it may fail while another is awaited. */
function settled<T>(promise: Promise<T>) {
  promise.catch(() => {});
  return { done: () => promise };
}

/** A batch's events by stream, and what of its writes is worked out while the batch before it is written. */
interface Batch {
  streams: ProjectableEvent[][];
  /** The changes of the execution streams that begin in this batch: no earlier batch has written their rows. */
  begunChanges: ReadModelChange[];
  /** Their rows, encoded for COPY. */
  begunRows: EncodedRows[];
  /** The other execution streams: they continue from rows that the batches before wrote. */
  continuing: ProjectableEvent[][];
  flows: FlowStreamsRebuild;
  folded: FlowBefore[];
}

function prepareBatch(events: ProjectableEvent[], flows: FlowStreamsRebuild): Batch {
  const streams = eventsByStream(events);
  const begins = (events: ProjectableEvent[]) =>
    events[0]!.streamPosition === 1 && events[0]!.streamId.startsWith(EXECUTION_STREAM_PREFIX);
  const begunChanges = begunExecutionStreamsChanges(streams.filter(begins));
  const begunRows = new ReadModelBatch();
  begunRows.add(begunChanges);
  const continuing = streams.filter((events) => !begins(events));
  return {
    streams,
    begunChanges,
    begunRows: begunRows.encodeAdded(),
    continuing,
    flows,
    folded: flows.fold(streams),
  };
}

/**
 * One batch in one transaction, its added rows sent with COPY. COPY refuses a row whose id is there already,
 * where the inline INSERT skips it (a log may repeat an id): the batch is then written again with the inline
 * statements, which also say what went wrong when anything else did.
 */
async function writeBatch(sql: RebuildTarget, batch: Batch) {
  try {
    await sql.begin((tx) => writeReadModels(tx, batch, true));
  } catch {
    await sql.begin((tx) => writeReadModels(tx, batch, false));
  }
}

async function writeReadModels(tx: TransactionSql, batch: Batch, copying: boolean) {
  // Flows first: the batch's other rows may name them. Sent together with the read of the executions.
  const [, continuingChanges] = await Promise.all([
    batch.flows.write(tx, batch.folded),
    executionStreamsChanges(tx, batch.continuing),
    ...workspaceStreamsStatements(tx, batch.streams),
    ...datasetStreamsStatements(tx, batch.streams),
    ...experimentStreamsStatements(tx, batch.streams),
  ]);
  const readModels = new ReadModelBatch();
  readModels.add(continuingChanges);
  readModels.add(masterStreamsChanges(batch.streams));
  if (copying) return readModels.copy(tx, batch.begunRows);
  readModels.add(batch.begunChanges);
  await readModels.write(tx);
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
