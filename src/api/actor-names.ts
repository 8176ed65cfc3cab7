import type { Sql } from 'postgres';
import type { RecordedEvent } from '../eventstore';

/** The user who caused an event (its metadata's userId), or null for the system. */
export const actorOf = (event: Pick<RecordedEvent, 'metadata'>): string | null =>
  typeof event.metadata.userId === 'string' ? event.metadata.userId : null;

/** The names of the users who caused the events: the name the navigation bar shows, first name else e-mail. */
export async function actorNames(
  sql: Sql,
  events: Pick<RecordedEvent, 'metadata'>[],
): Promise<Map<string, string>> {
  const ids = [...new Set(events.map(actorOf).filter((id) => id !== null))];
  if (ids.length === 0) return new Map();
  const users = await sql<{ id: string; firstName: string | null; email: string }[]>`
    SELECT id, first_name, email FROM users WHERE id = ANY(${ids}::uuid[])`;
  return new Map(users.map((u) => [u.id, u.firstName?.trim() || u.email]));
}
