export { ConcurrencyConflict } from './concurrency-conflict';
export { type AppendOptions, EventStore } from './event-store';
export { LogTailer, type TailedLog, type TailOptions } from './log-tailer';
export type { FeedPage } from './read-all';
export type {
  AppendResult,
  Checkpoint,
  EventMetadata,
  EventsListener,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
} from './types';
