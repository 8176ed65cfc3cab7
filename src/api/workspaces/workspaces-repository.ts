import type { Sql } from 'postgres';
import type { Role } from '../access';

/** The workspaces' read models: who is a member of which workspace, in which role. */
export class WorkspacesRepository {
  constructor(private readonly sql: Sql) {}

  /** The user's role in the workspace; null when they are not a member (or it does not exist). */
  async roleOf(workspaceId: string, userId: string): Promise<Role | null> {
    const [row] = await this.sql<{ role: Role }[]>`
      SELECT role FROM workspace_members WHERE workspace_id = ${workspaceId} AND user_id = ${userId}`;
    return row?.role ?? null;
  }
}
