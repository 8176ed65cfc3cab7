export { APPEND_TIMING_CHANNEL, type AppendTiming } from './append-timing';
export { ConcurrencyConflict } from './concurrency-conflict';
export { EventTooLarge, MAX_EVENT_BYTES } from './event-size';
export { type AppendOptions, AppendTransactionLost, EventStore, type Statement } from './event-store';
export { HELD_BACK } from './held-back-events';
export type { IdempotencyKey, KeyedCommand } from './idempotency-keys';
export { checkEventKey, KEY_MISMATCH_CHECK, KEY_MISMATCH_MESSAGE, type KeyCheck } from './key-check';
export { LogTailer, type TailedLog, type TailOptions } from './log-tailer';
export type { Queryable } from './queryable';
export { type FeedPage, type FeedRead, replaySnapshotFeed } from './read-all';
export type { ReplayedEvent } from './recorded-event';
export { sessionLost } from './session-lost';
export { SNAPSHOTS_TABLE, type Snapshot, type StreamFromSnapshot } from './snapshots';
export { streamVersion } from './stream-version';
export type {
  AppendResult,
  Checkpoint,
  EventMetadata,
  EventsListener,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
} from './types';
export type { StreamCheck } from './verify-stream';
