import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../domain/errors';
import { oneOf, requiredText } from '../../domain/filled-text';
import { INVITATIONS_PER_HOUR, WORKSPACE_NAME_MAX_LENGTH } from '../../domain/limits';
import { requestedId } from '../../domain/record-id';
import { NAME_REQUIRED, NAME_TOO_LONG } from '../../domain/workspace/decider';
import { WORKSPACE_ROLES } from '../../domain/workspace/events';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId, storedAt } from '../http/answer-schemas';
import { type ListOrder, listAnswer, listAnswerInMemory, pagedOr, pageQuery, timeKey } from '../http/pages';
import { countOnlyWhatIsMade } from '../http/rate-limit-store';
import { commandIdOf, idParams, noFieldsBody } from '../http/request-schemas';
import { secondsOf } from '../model-calls/rate-limit';
import { PENDING_INVITATIONS_ORDER, WORKSPACES_ORDER } from './workspaces-repository';

const role = z
  .enum(WORKSPACE_ROLES, { error: oneOf(WORKSPACE_ROLES) })
  .describe(
    'owner: everything, and manages members; editor: read, change, run, review, watch; reviewer: read, review, watch; auditor: read, watch',
  )
  .meta({ id: 'WorkspaceRole' });

const workspaceAnswer = z
  .object({ id: recordId, name: z.string(), role: role.describe("The signed-in user's role in it") })
  .meta({ id: 'Workspace' });

const memberAnswer = z
  .object({ userId: recordId, name: z.string(), email: z.string(), role })
  .meta({ id: 'WorkspaceMember' });

const invitationAnswer = z
  .object({
    id: recordId,
    email: z.string(),
    role,
    acceptUrl: z
      .string()
      .describe(
        "The web app's page that accepts the invitation, with its one-time token: pass it on to the invitee (when the server sends mail, it is mailed too)",
      ),
    expiresAt: storedAt,
  })
  .meta({ id: 'Invitation' });

const pendingInvitationAnswer = z
  .object({
    id: recordId,
    email: z.string(),
    role,
    invitedBy: z
      .object({ userId: recordId, name: z.string() })
      .describe('The member who made the invitation'),
    createdAt: storedAt,
    expiresAt: storedAt,
  })
  .meta({ id: 'PendingInvitation' });

const acceptedAnswer = z.object({ workspaceId: recordId, role }).meta({ id: 'AcceptedInvitation' });

const invitationPreview = z
  .object({
    workspaceName: z.string(),
    inviterName: z.string().describe('The name of the owner who invited'),
    role: role.describe('The role the invitation gives'),
    expiresAt: z.string(),
    accepted: z
      .boolean()
      .describe('True when you accepted it already: the link cannot be used again (the page says so)'),
  })
  .meta({ id: 'InvitationPreview' });

/** A workspace's members, first joined first (at most MAX_WORKSPACE_MEMBERS: read whole, paged in memory). */
const MEMBERS_ORDER: ListOrder = {
  list: 'workspace-members',
  keys: [
    { sql: 'joined_at', order: 'asc', type: 'timestamptz' },
    { sql: 'user_id', order: 'asc', type: 'uuid' },
  ],
};

const createWorkspaceBody = z.strictObject({
  name: requiredText(NAME_REQUIRED, WORKSPACE_NAME_MAX_LENGTH, NAME_TOO_LONG),
});

const email = z
  .string({ error: 'email: phải là một địa chỉ e-mail' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'email: phải là một địa chỉ e-mail' }).max(254, 'email: phải là một địa chỉ e-mail'))
  .meta({ format: 'email', pattern: z.regexes.email.source, maxLength: 254 });

const inviteBody = z.strictObject({ email, role });
const roleBody = z.strictObject({ role });
const memberParams = z.object({ id: requestedId(), userId: requestedId() });
const invitationParams = z.object({ id: requestedId(), invitationId: requestedId() });
/** A token as invitations make them: 32 random bytes, base64url. */
const tokenParams = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'token: không phải token của lời mời'),
});

/** Whose invitations a request counts among. */
const inviterOf = (request: FastifyRequest) => request.userId ?? request.ip;

/**
 * Invitations per user (not per address), counted by every instance together, of invitations made only: a
 * request that made none (refused, given up on a conflict, a replay of the same Idempotency-Key) gives its
 * count back (`countOnlyWhatIsMade`).
 */
const invitationRateLimit = {
  rateLimit: {
    max: INVITATIONS_PER_HOUR,
    timeWindow: '1 hour',
    keyGenerator: inviterOf,
    hook: 'preHandler' as const,
    errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) =>
      new DomainError(
        'over_limit',
        `Mỗi giờ chỉ được gửi tối đa ${INVITATIONS_PER_HOUR} lời mời; vui lòng thử lại sau ${secondsOf(context.ttl)} giây`,
      ),
  },
};

/**
 * Where an invitation's link leads: PUBLIC_URL when it is set, else the web app's origin as the request
 * reached it (its Host, or X-Forwarded-Host from a proxy TRUST_PROXY names).
 */
const invitationOrigin = (request: FastifyRequest) => {
  const { publicUrl, publicUrlSet } = request.server.config;
  return publicUrlSet ? publicUrl : `${request.protocol}://${request.host}`;
};

export const workspaceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { workspaces, workspaceCommands } = app;

  app.get(
    '/api/workspaces',
    { schema: { querystring: pageQuery, response: { 200: pagedOr(workspaceAnswer) } } },
    async (request) =>
      listAnswer(request.query, WORKSPACES_ORDER, (page) => workspaces.list(userIdOf(request), page)),
  );

  app.post(
    '/api/workspaces',
    { schema: { body: createWorkspaceBody, response: { 201: workspaceAnswer } } },
    async (request, reply) => {
      const workspace = await workspaceCommands.create(
        userIdOf(request),
        request.body.name,
        commandIdOf(request),
      );
      return reply.status(201).send(workspace);
    },
  );

  app.get(
    '/api/workspaces/:id/members',
    { schema: { params: idParams, querystring: pageQuery, response: { 200: pagedOr(memberAnswer) } } },
    async (request) =>
      listAnswerInMemory(
        request.query,
        MEMBERS_ORDER,
        await workspaces.members(request.params.id, userIdOf(request)),
        (member) => [timeKey(member.joinedAt), member.userId],
      ),
  );

  app.post(
    '/api/workspaces/:id/invitations',
    {
      config: invitationRateLimit,
      onResponse: countOnlyWhatIsMade(201, inviterOf),
      schema: { params: idParams, body: inviteBody, response: { 201: invitationAnswer } },
    },
    async (request, reply) => {
      const invitation = await workspaceCommands.invite(
        request.params.id,
        userIdOf(request),
        request.body,
        invitationOrigin(request),
        commandIdOf(request),
      );
      return reply.status(201).send(invitation);
    },
  );

  app.get(
    '/api/workspaces/:id/invitations',
    {
      schema: {
        description:
          "The workspace's pending invitations (not accepted, revoked or expired), newest first. Owners only.",
        params: idParams,
        querystring: pageQuery,
        response: { 200: pagedOr(pendingInvitationAnswer) },
      },
    },
    async (request) =>
      listAnswer(request.query, PENDING_INVITATIONS_ORDER, (page) =>
        workspaceCommands.pendingInvitations(request.params.id, userIdOf(request), page),
      ),
  );

  app.delete(
    '/api/workspaces/:id/invitations/:invitationId',
    {
      schema: {
        description:
          'Revokes a pending invitation (owners): its link then answers 404 to everyone, read or accepted.',
        params: invitationParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      const { id, invitationId } = request.params;
      await workspaceCommands.revoke(id, userIdOf(request), invitationId, commandIdOf(request));
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/invitations/:token',
    {
      schema: {
        description:
          "What an invitation's page shows before it is accepted. Only the person it was sent to, signed in, reads it; once they accepted it, it answers with accepted true (to them only). A token used by someone else, expired, revoked or unknown, or another person's, is 404.",
        params: tokenParams,
        response: { 200: invitationPreview },
      },
    },
    async (request) => workspaceCommands.readInvitation(request.params.token, userIdOf(request)),
  );

  app.post(
    '/api/invitations/:token/accept',
    { schema: { params: tokenParams, body: noFieldsBody, response: { 200: acceptedAnswer } } },
    async (request) =>
      workspaceCommands.accept(request.params.token, userIdOf(request), commandIdOf(request)),
  );

  app.put(
    '/api/workspaces/:id/members/:userId',
    { schema: { params: memberParams, body: roleBody, response: { 200: memberAnswer } } },
    async (request) => {
      const { id, userId: memberId } = request.params;
      const userId = userIdOf(request);
      await workspaceCommands.changeRole(id, userId, memberId, request.body.role, commandIdOf(request));
      return workspaces.member(id, memberId, userId);
    },
  );

  app.delete(
    '/api/workspaces/:id/members/:userId',
    { schema: { params: memberParams, response: { 204: noContent } } },
    async (request, reply) => {
      const { id, userId: memberId } = request.params;
      await workspaceCommands.remove(id, userIdOf(request), memberId, commandIdOf(request));
      return reply.status(204).send();
    },
  );
};
