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

/**
 * A text a spreadsheet would read as a formula (OWASP's CSV injection guidance): one beginning with = + - @,
 * a tab or a carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A field as CSV writes it: quoted when it holds a comma, a quote or a line break, its quotes doubled. A text
 * that would start a formula is prefixed with a single quote and quoted, so a spreadsheet shows it as text
 * (an actor's name or an edited result is anyone's text). Numbers are written as they are.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** The entries as CSV: a header line, then one line per event (CRLF line ends). */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = entries.map((entry) =>
    [entry.position, entry.at, entry.actor.userId, entry.actor.name, entry.type, entry.summary, entry.hash]
      .map(csvField)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
