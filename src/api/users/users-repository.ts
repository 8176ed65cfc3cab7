import type { Sql } from 'postgres';
import type { RecordedEvent } from '../../eventstore';

/** Who caused an event, as history and versions show it: null for the system. */
export interface Actor {
  userId: string | null;
  name: string | null;
}

/** The user who caused an event (its metadata's userId), or null for the system. */
export const actorOf = (event: Pick<RecordedEvent, 'metadata'>): string | null =>
  typeof event.metadata.userId === 'string' ? event.metadata.userId : null;

/** The `users` table as the rest of the app reads it. */
export class UsersRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The named actors of the given users (as the navigation bar names a user: first name, else e-mail), read
   * at once for all of them; then a lookup per user id (null: the system).
   */
  async actors(userIds: (string | null)[]): Promise<(userId: string | null) => Actor> {
    const ids = [...new Set(userIds.filter((id) => id !== null))];
    const users =
      ids.length === 0
        ? []
        : await this.sql<{ id: string; firstName: string | null; email: string }[]>`
            SELECT id, first_name, email FROM users WHERE id = ANY(${ids}::uuid[])`;
    const names = new Map(users.map((u) => [u.id, u.firstName?.trim() || u.email]));
    return (userId) => ({ userId, name: userId ? (names.get(userId) ?? null) : null });
  }
}
