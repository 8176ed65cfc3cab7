/** What a caller hands to `append`: the store adds ids, positions and time. */
export interface NewEvent {
  type: string;
  data: unknown;
  metadata?: EventMetadata;
}

/** Who and what caused an event; `commandId` makes a command idempotent, `at` is filled when absent. */
export interface EventMetadata {
  userId?: string;
  commandId?: string;
  correlationId?: string;
  causationId?: string;
  at?: string;
  [key: string]: unknown;
}

/** An event as the log holds it. */
export interface RecordedEvent {
  globalPosition: number;
  /** The xid8 of the appending transaction, as text: together with globalPosition it orders the whole log. */
  transactionId: string;
  streamId: string;
  /** 1-based, contiguous within the stream. */
  streamPosition: number;
  eventId: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  /** ISO 8601. */
  createdAt: string;
}

/** A position in the gap-safe feed of every stream: reads continue strictly after it. */
export interface Checkpoint {
  transactionId: string;
  globalPosition: number;
}

/** A stream's version before the append; 0 and 'no_stream' both mean the stream must not exist yet. */
export type ExpectedVersion = number | 'no_stream' | 'any';

export interface AppendResult {
  /** The stream's version after the append: the expected version for the next one. */
  nextExpectedVersion: number;
  events: RecordedEvent[];
  /** True when the command had already been appended: `events` are the earlier ones, nothing was written. */
  duplicate: boolean;
}

export type EventsListener = (events: RecordedEvent[]) => void;
