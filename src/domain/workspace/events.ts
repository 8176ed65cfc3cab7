/** A member's role in a workspace; what each may do is decided by the API's access rules (access.ts). */
export const WORKSPACE_ROLES = ['owner', 'editor', 'reviewer', 'auditor'] as const;
export type Role = (typeof WORKSPACE_ROLES)[number];

/** The stream of a workspace's members and invitations: `workspace-<workspaceId>`. */
export const WORKSPACE_STREAM_PREFIX = 'workspace-';
export const workspaceStreamId = (workspaceId: string) => `${WORKSPACE_STREAM_PREFIX}${workspaceId}`;

export type WorkspaceEvent =
  /** The workspace is made; the one who made it is its first owner. */
  | { type: 'WorkspaceCreated'; data: { workspaceId: string; name: string; ownerId: string; at: string } }
  | { type: 'WorkspaceRenamed'; data: { before: string; after: string; at: string } }
  /**
   * An invitation to the e-mail address, in a role, until `expiresAt`. Only the SHA-256 of its token is
   * recorded (hex): the token itself is in the link the inviter passes on, and nowhere else.
   */
  | {
      type: 'MemberInvited';
      data: {
        invitationId: string;
        email: string;
        role: Role;
        tokenHash: string;
        invitedBy: string;
        expiresAt: string;
        at: string;
      };
    }
  /** The invitation was accepted: the user is a member in its role. */
  | { type: 'MemberJoined'; data: { invitationId: string; userId: string; role: Role; at: string } }
  | { type: 'MemberRoleChanged'; data: { userId: string; before: Role; after: Role; at: string } }
  /** The member was removed, or left; `role` is the one they had. */
  | { type: 'MemberRemoved'; data: { userId: string; role: Role; at: string } }
  /**
   * A pending invitation can no longer be used: an owner revoked it, or its inviter was removed or given a
   * role that does not manage members (in the same command as that removal or role change).
   */
  | {
      type: 'InvitationRevoked';
      data: { invitationId: string; reason: RevocationReason; at: string };
    };

/** Why an invitation was revoked. */
export const REVOCATION_REASONS = ['revoked', 'inviter-removed', 'inviter-demoted'] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  tokenHash: string;
  expiresAt: string;
  /** The member who made it. */
  invitedBy: string;
  /** Who accepted it; null while it is open. */
  acceptedBy: string | null;
  /** Whether it was revoked (then it can no longer be used). */
  revoked: boolean;
}

export interface WorkspaceState {
  /** null: no workspace on this stream yet. */
  workspaceId: string | null;
  name: string;
  /** Each member's role, by user id. */
  members: Map<string, Role>;
  invitations: Invitation[];
  createdAt: string | null;
  updatedAt: string | null;
}
