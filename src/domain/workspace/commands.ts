import type { Role } from './events';

/**
 * Commands of a workspace's stream. Whether the actor may give one (an owner manages members, any member
 * may leave) is the API's access rule, checked before the command is decided; the rules here are the
 * workspace's own: it always has an owner, it is not too large, an invitation is used once, in time, by the
 * one it was sent to, and never once revoked or once its inviter may no longer manage members.
 */
export type WorkspaceCommand =
  /** `workspacesOfOwner`: how many workspaces the one who makes it is a member of already. */
  | { type: 'CreateWorkspace'; data: { workspaceId: string; name: string; workspacesOfOwner: number } }
  | { type: 'RenameWorkspace'; data: { name: string } }
  /**
   * `inviteeId`: the account with that e-mail address, when there is one (only to refuse inviting a member;
   * nobody is told whether an address has an account).
   */
  | {
      type: 'InviteMember';
      data: {
        invitationId: string;
        email: string;
        role: Role;
        tokenHash: string;
        expiresAt: string;
        inviteeId: string | null;
      };
    }
  /** By the signed-in user, whose e-mail address must be the invitation's; `workspacesOfUser` as above. */
  | {
      type: 'AcceptInvitation';
      data: { tokenHash: string; email: string; workspacesOfUser: number };
    }
  /** Also revokes the member's pending invitations when the new role may not manage members. */
  | { type: 'ChangeMemberRole'; data: { userId: string; role: Role } }
  /** Also revokes the member's pending invitations. */
  | { type: 'RemoveMember'; data: { userId: string } }
  /** An owner revokes a pending invitation: its link is then missing to everyone. */
  | { type: 'RevokeInvitation'; data: { invitationId: string } };

export interface WorkspaceContext {
  /** ISO time of the command. */
  now: string;
  /** Who gives the command. */
  userId: string;
  /** The stream's version the state reflects. */
  version: number;
}
