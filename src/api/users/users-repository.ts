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

/** A user as signed in: the navigation bar and `/api/auth/user` show these. */
export interface User {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/** A user with the password's salt and hash to check a sign-in against (null: no password was ever set). */
export type Account = User & { passwordSalt: string | null; passwordHash: string | null };

/** The `users` table (and the credentials beside it) as the rest of the app reads and writes it. */
export class UsersRepository {
  constructor(private readonly sql: Sql) {}

  async byId(userId: string): Promise<User | undefined> {
    const [user] = await this.sql<User[]>`
      SELECT id, email, first_name, last_name FROM users WHERE id = ${userId}`;
    return user;
  }

  async accountByEmail(email: string): Promise<Account | undefined> {
    const [account] = await this.sql<Account[]>`
      SELECT u.id, u.email, u.first_name, u.last_name, c.password_salt, c.password_hash
      FROM users u LEFT JOIN user_credentials c ON c.user_id = u.id
      WHERE u.email = ${email}`;
    return account;
  }

  /**
   * A new user with their credentials, or undefined when the e-mail is taken. One statement, so a user never
   * exists without credentials and two racing sign-ups cannot both win.
   */
  async register(
    input: { email: string; firstName: string | null; lastName: string | null },
    password: { salt: string; hash: string },
  ): Promise<User | undefined> {
    const [user] = await this.sql<User[]>`
      WITH new_user AS (
        INSERT INTO users (email, first_name, last_name)
        VALUES (${input.email}, ${input.firstName}, ${input.lastName})
        ON CONFLICT (email) DO NOTHING
        RETURNING id, email, first_name, last_name
      ), credentials AS (
        INSERT INTO user_credentials (user_id, password_salt, password_hash)
        SELECT id, ${password.salt}, ${password.hash} FROM new_user
      )
      SELECT id, email, first_name, last_name FROM new_user`;
    return user;
  }

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
