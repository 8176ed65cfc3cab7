import { csvField } from '../../domain/csv';
import type { RecordedEvent } from '../../eventstore';
import { eventSummary } from '../cli/event-line';

export interface AuditActor {
  userId: string | null;
  name: string | null;
}

/** One event of a record as an audit file lists it. */
export interface AuditEntry {
  position: number;
  at: string;
  actor: AuditActor;
  type: string;
  /** What the event did, in one line: the event log tool's words for it. */
  summary: string;
  /** The event's hash, in hex; null when it was stored without one. */
  hash: string | null;
}

/** A stream's events as audit entries, with each one's stored hash and named actor. */
export function auditEntries(
  events: readonly RecordedEvent[],
  hashes: ReadonlyMap<number, string | null>,
  actor: (userId: string | null) => AuditActor,
): AuditEntry[] {
  return events.map((event) => ({
    position: event.streamPosition,
    at: event.metadata.at ?? event.createdAt,
    actor: actor(event.metadata.userId ?? null),
    type: event.type,
    summary: eventSummary(event),
    hash: hashes.get(event.streamPosition) ?? null,
  }));
}

const CSV_COLUMNS = ['position', 'time', 'actor_id', 'actor', 'type', 'summary', 'hash'] as const;

/** The entries as CSV: a header line, then one line per event (CRLF line ends). */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = entries.map((entry) =>
    [entry.position, entry.at, entry.actor.userId, entry.actor.name, entry.type, entry.summary, entry.hash]
      .map(csvField)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
