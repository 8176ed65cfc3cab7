import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import { conflict, notFound, ruleViolated } from '../../domain/errors';
import { INVITATION_LIFETIME_MS, MAX_WORKSPACES_PER_USER } from '../../domain/limits';
import type { WorkspaceCommand } from '../../domain/workspace/commands';
import {
  INVITATION_NOT_FOUND,
  isOpenInvitationFor,
  TOO_MANY_WORKSPACES,
} from '../../domain/workspace/decider';
import type { Role, WorkspaceState } from '../../domain/workspace/events';
import type { CommandHandler } from '../commands/command-handler';
import { isPastLimit, withinLimits } from '../commands/within-limit';
import type { Page } from '../http/pages';
import type { Notifications } from '../notifications/notifications';
import { workspaceAggregate } from './workspace-aggregate';
import type { WorkspacesRepository } from './workspaces-repository';

/** The path of the web app's page that accepts an invitation: `/invitations/<token>`. */
export const INVITATION_PAGE_PATH = '/invitations';

/** The SHA-256 of an invitation's token, in hex: all that is ever stored of it. */
export const tokenHashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export interface NewInvitation {
  id: string;
  email: string;
  role: Role;
  /** The web app's page that accepts it; its last part is the one-time token. */
  acceptUrl: string;
  expiresAt: string;
}

/** What `withinWorkspacesLimit` raises when a user would be a member of more than MAX_WORKSPACES_PER_USER. */
const PAST_LIMIT = 'workspaces_per_user';

/**
 * The statement that holds the user to MAX_WORKSPACES_PER_USER in the transaction that makes them a member
 * (`withinLimits`: the user's row held, their memberships counted again): the count the decider had was read
 * before, and workspaces made or joined at once would each pass it.
 */
const withinWorkspacesLimit = (tx: TransactionSql, userId: string) =>
  withinLimits(tx, [
    {
      name: PAST_LIMIT,
      parent: { table: 'users', id: userId },
      count: (id) => `SELECT count(*) FROM workspace_members WHERE user_id = ${id}`,
      limit: MAX_WORKSPACES_PER_USER,
    },
  ]);

/** The refusal of `withinWorkspacesLimit` as the decider's own; any other error as it is. */
const pastWorkspacesLimit = (error: unknown): never => {
  throw isPastLimit(error, PAST_LIMIT) ? ruleViolated(TOO_MANY_WORKSPACES) : error;
};

/**
 * Every change of a workspace, its members and invitations, as a command on its stream (`workspace-<id>`)
 * through the one command handler, after access.ts said the actor may give it.
 */
export class WorkspaceCommands {
  /** What "now" is for the commands: the clock, unless a test moves it. */
  now: () => Date = () => new Date();

  constructor(
    private readonly commands: CommandHandler,
    private readonly workspaces: WorkspacesRepository,
    /** Where an invitation's mail is queued, in the invitation's transaction; none: no mail. */
    private readonly mail?: Pick<Notifications, 'mails' | 'mailStatement'>,
  ) {}

  /** A new workspace, its maker its owner. */
  async create(userId: string, name: string, commandId?: string) {
    const workspaceId = randomUUID();
    const workspacesOfOwner = await this.workspaces.countOf(userId);
    const { state } = await this.commands
      .handle(
        workspaceAggregate,
        workspaceId,
        userId,
        { type: 'CreateWorkspace', data: { workspaceId, name, workspacesOfOwner } },
        {
          context: this.contextFor(userId),
          startsStream: true,
          commandId,
          withEvents: (tx) => withinWorkspacesLimit(tx, userId),
        },
      )
      .catch(pastWorkspacesLimit);
    return { id: state.workspaceId!, name: state.name, role: 'owner' as const };
  }

  /**
   * An invitation to `email` in `role`, valid INVITATION_LIFETIME_MS, by an owner. Its link, on the web app at
   * `origin`, ends in a new random token; only the token's hash is recorded.
   */
  async invite(
    workspaceId: string,
    userId: string,
    input: { email: string; role: Role },
    origin: string,
    commandId?: string,
  ): Promise<NewInvitation> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = tokenHashOf(token);
    const invitationId = randomUUID();
    const email = input.email.trim().toLowerCase();
    const expiresAt = new Date(this.now().getTime() + INVITATION_LIFETIME_MS).toISOString();
    const inviteeId = await this.workspaces.accountWithEmail(email);
    const acceptUrl = `${origin}${INVITATION_PAGE_PATH}/${token}`;
    const { mail } = this;
    const { events } = await this.commands.handle(
      workspaceAggregate,
      workspaceId,
      userId,
      {
        type: 'InviteMember',
        data: { invitationId, email, role: input.role, tokenHash, expiresAt, inviteeId },
      },
      {
        context: this.contextFor(userId),
        commandId,
        // When mail is configured, a job mails the link: it commits with the invitation, and is sent after.
        ...(mail?.mails
          ? {
              withEvents: (tx: TransactionSql, after: WorkspaceState) =>
                mail.mailStatement(tx, {
                  to: email,
                  template: 'invitation',
                  values: { workspaceName: after.name, role: input.role, acceptUrl, expiresAt },
                })!,
            }
          : {}),
      },
    );
    const recorded = events[0];
    if (recorded?.type !== 'MemberInvited' || recorded.data.tokenHash !== tokenHash) {
      // The same Idempotency-Key made an invitation before whose answer was not kept: its token is gone.
      throw conflict('Lời mời này đã được tạo và không thể hiển thị lại link; vui lòng mời lại.');
    }
    const { data } = recorded;
    return {
      id: data.invitationId,
      email: data.email,
      role: data.role,
      acceptUrl,
      expiresAt: data.expiresAt,
    };
  }

  /**
   * The signed-in user accepts the invitation the token is of, if it was sent to their e-mail address and is
   * neither used nor expired: otherwise it is missing (404), whatever the reason.
   */
  async accept(token: string, userId: string, commandId?: string) {
    const tokenHash = tokenHashOf(token);
    const workspaceId = await this.workspaces.workspaceOfInvitation(tokenHash);
    const email = await this.workspaces.emailOf(userId);
    if (workspaceId === null || email === null) throw notFound(INVITATION_NOT_FOUND);
    const workspacesOfUser = await this.workspaces.countOf(userId);
    const { events, state } = await this.commands
      .handle(
        workspaceAggregate,
        workspaceId,
        userId,
        { type: 'AcceptInvitation', data: { tokenHash, email, workspacesOfUser } },
        {
          context: this.contextFor(userId),
          commandId,
          withEvents: (tx) => withinWorkspacesLimit(tx, userId),
        },
      )
      .catch(pastWorkspacesLimit);
    const joined = events.find((event) => event.type === 'MemberJoined');
    const role = joined?.type === 'MemberJoined' ? joined.data.role : state.members.get(userId);
    if (role === undefined) throw notFound(INVITATION_NOT_FOUND);
    return { workspaceId, role };
  }

  /**
   * What the invitation's page shows before it is accepted: the workspace, who invited, the role and the
   * expiry. Only to the person it may still make a member (the same rule as accepting), or to the one who
   * accepted it, with `accepted`, so the page says it was used instead of offering Accept; otherwise missing.
   */
  async readInvitation(token: string, userId: string) {
    const invitation = await this.workspaces.invitation(tokenHashOf(token));
    const email = await this.workspaces.emailOf(userId);
    if (!invitation || email === null) throw notFound(INVITATION_NOT_FOUND);
    const accepted = invitation.acceptedBy === userId;
    if (!accepted && !isOpenInvitationFor(invitation, email, this.now().toISOString()))
      throw notFound(INVITATION_NOT_FOUND);
    const { workspaceName, inviterName, role, expiresAt } = invitation;
    return { workspaceName, inviterName, role, expiresAt, accepted };
  }

  /** The workspace's pending invitations, newest first, to one who may manage its members (owners). */
  async pendingInvitations(workspaceId: string, userId: string, page: Page | null) {
    await this.commands.requireIn(workspaceId, userId, 'manage', 'workspace');
    return this.workspaces.pendingInvitations(workspaceId, this.now().toISOString(), page);
  }

  /** An owner revokes a pending invitation: its link is then missing to everyone (404). */
  async revoke(workspaceId: string, userId: string, invitationId: string, commandId?: string) {
    await this.handle(workspaceId, userId, {
      type: 'RevokeInvitation',
      data: { invitationId },
      commandId,
    });
  }

  /**
   * An owner gives a member another role; the last owner keeps theirs. A role that does not manage members
   * revokes the member's pending invitations.
   */
  async changeRole(workspaceId: string, userId: string, memberId: string, role: Role, commandId?: string) {
    await this.handle(workspaceId, userId, {
      type: 'ChangeMemberRole',
      data: { userId: memberId, role },
      commandId,
    });
  }

  /**
   * An owner removes a member, or a member leaves (removes themselves, whatever their role); the last owner
   * can do neither. The member's pending invitations are revoked with it.
   */
  async remove(workspaceId: string, userId: string, memberId: string, commandId?: string) {
    await this.handle(workspaceId, userId, {
      type: 'RemoveMember',
      data: { userId: memberId },
      commandId,
    });
  }

  /** A command on the workspace, decided only on a state where the access rule lets the user give it. */
  private handle(
    workspaceId: string,
    userId: string,
    command: WorkspaceCommand & { commandId?: string | undefined },
  ) {
    const { commandId, ...decided } = command;
    return this.commands.handle(workspaceAggregate, workspaceId, userId, decided as WorkspaceCommand, {
      context: this.contextFor(userId),
      commandId,
    });
  }

  private contextFor(userId: string) {
    return (_state: WorkspaceState, version: number) => ({
      now: this.now().toISOString(),
      userId,
      version,
    });
  }
}
