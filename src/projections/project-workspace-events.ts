import type { TransactionSql } from 'postgres';
import { WORKSPACE_STREAM_PREFIX, type WorkspaceEvent } from '../domain/workspace/events';
import type { Statement } from '../eventstore';
import type { ProjectableEvent } from './project-execution-events';

export const toWorkspaceEvent = (recorded: Pick<ProjectableEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as WorkspaceEvent;

/**
 * The statements that write `workspaces`, `workspace_members` and `workspace_invitations` from a workspace
 * stream's events, one or two per event, in the stream's order: the same statements for a command's append
 * and for a rebuild, which replays the streams in order (each event's row exists once its stream began).
 */
export function workspaceStatements(sql: TransactionSql, events: ProjectableEvent[]): Statement[] {
  const streamId = events[0]?.streamId;
  if (!streamId?.startsWith(WORKSPACE_STREAM_PREFIX)) return [];
  const workspaceId = streamId.slice(WORKSPACE_STREAM_PREFIX.length);
  return events.flatMap((recorded) => {
    const event = toWorkspaceEvent(recorded);
    const position = recorded.streamPosition;
    const { at } = event.data;
    // Made only where returned: a statement runs once sent.
    const touched = () => sql`
      UPDATE workspaces SET updated_at = ${at}, position = ${position} WHERE id = ${workspaceId}`;
    switch (event.type) {
      case 'WorkspaceCreated': {
        const { name, ownerId } = event.data;
        return [
          sql`
            INSERT INTO workspaces (id, name, created_by, created_at, updated_at, position)
            VALUES (${workspaceId}, ${name}, ${ownerId}, ${at}, ${at}, ${position})
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, created_by = excluded.created_by,
              created_at = excluded.created_at, updated_at = excluded.updated_at, position = excluded.position`,
          memberStatement(sql, workspaceId, ownerId, 'owner', at),
        ];
      }
      case 'WorkspaceRenamed':
        return [
          sql`
            UPDATE workspaces SET name = ${event.data.after}, updated_at = ${at}, position = ${position}
            WHERE id = ${workspaceId}`,
        ];
      case 'MemberInvited': {
        const { invitationId, email, role, tokenHash, invitedBy, expiresAt } = event.data;
        return [
          sql`
            INSERT INTO workspace_invitations
              (id, workspace_id, email, role, token_hash, invited_by, created_at, expires_at)
            VALUES (${invitationId}, ${workspaceId}, ${email}, ${role}, ${tokenHash}, ${invitedBy}, ${at},
                    ${expiresAt})
            ON CONFLICT (id) DO NOTHING`,
          touched(),
        ];
      }
      case 'MemberJoined': {
        const { invitationId, userId, role } = event.data;
        return [
          memberStatement(sql, workspaceId, userId, role, at),
          sql`
            UPDATE workspace_invitations SET accepted_by = ${userId}, accepted_at = ${at}
            WHERE id = ${invitationId}`,
          touched(),
        ];
      }
      case 'MemberRoleChanged':
        return [
          sql`
            UPDATE workspace_members SET role = ${event.data.after}
            WHERE workspace_id = ${workspaceId} AND user_id = ${event.data.userId}`,
          touched(),
        ];
      case 'MemberRemoved':
        return [
          sql`
            DELETE FROM workspace_members WHERE workspace_id = ${workspaceId} AND user_id = ${event.data.userId}`,
          touched(),
        ];
      case 'InvitationRevoked': {
        const { invitationId, reason } = event.data;
        return [
          sql`
            UPDATE workspace_invitations SET revoked_at = ${at}, revoked_reason = ${reason}
            WHERE id = ${invitationId}`,
          touched(),
        ];
      }
      default:
        // An event type this version does not know writes nothing.
        return [];
    }
  });
}

const memberStatement = (
  sql: TransactionSql,
  workspaceId: string,
  userId: string,
  role: string,
  at: string,
) => sql`
  INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
  VALUES (${workspaceId}, ${userId}, ${role}, ${at})
  ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role, joined_at = excluded.joined_at`;

/** A rebuild batch's workspace streams, each as its statements, in order. */
export function workspaceStreamsStatements(sql: TransactionSql, streams: ProjectableEvent[][]): Statement[] {
  return streams.flatMap((events) => workspaceStatements(sql, events));
}
