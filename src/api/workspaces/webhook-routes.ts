import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conflict, notFound } from '../../domain/errors';
import { atMostCharacters, FILLED, isRequired, oneOf } from '../../domain/filled-text';
import { requestedId } from '../../domain/record-id';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId, storedAt } from '../http/answer-schemas';
import { type ListOrder, listAnswerInMemory, pagedOr, pageQuery, timeKey } from '../http/pages';
import { idParams } from '../http/request-schemas';
import {
  DEPRECATED_WEBHOOK_EVENT_TYPES,
  SECRET_ROTATION_OVERLAP_MS,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '../notifications/notifications';
import { allowedWebhookUrl, newWebhookSecret } from '../notifications/webhook-delivery';
import { createOwnKeyCipher } from '../own-keys/own-key-cipher';
import type { WebhookRow } from './webhooks-repository';

const WEBHOOK_NOT_FOUND = 'Không tìm thấy webhook';
const DELIVERY_NOT_FOUND = 'Không tìm thấy lần gửi';

/** How many webhooks one workspace may have. */
export const WEBHOOKS_PER_WORKSPACE = 10;

const eventType = z
  .enum([...WEBHOOK_EVENT_TYPES, '*'], {
    error: `events: ${oneOf([...WEBHOOK_EVENT_TYPES, '*'])}`,
  })
  .meta({ id: 'WebhookEventType' });

const deprecatedNames = Object.keys(
  DEPRECATED_WEBHOOK_EVENT_TYPES,
) as (keyof typeof DEPRECATED_WEBHOOK_EVENT_TYPES)[];

/** An event type asked for: one of WEBHOOK_EVENT_TYPES, `*`, or a deprecated name (taken as what it stands for). */
const askedEventType = z.enum([...WEBHOOK_EVENT_TYPES, '*', ...deprecatedNames], {
  error: `events: ${oneOf([...WEBHOOK_EVENT_TYPES, '*'])}`,
});

type EventType = WebhookEventType | '*';
const standingFor = (name: z.infer<typeof askedEventType>): readonly EventType[] =>
  name in DEPRECATED_WEBHOOK_EVENT_TYPES
    ? DEPRECATED_WEBHOOK_EVENT_TYPES[name as keyof typeof DEPRECATED_WEBHOOK_EVENT_TYPES]
    : [name as EventType];

const createWebhookBody = z.strictObject({
  url: z
    .string({ error: 'url: phải là một URL' })
    .trim()
    .min(1, isRequired('url'))
    .max(2_000, `url: ${atMostCharacters(2_000)}`)
    .meta(FILLED),
  events: z
    .array(askedEventType, { error: 'events: phải là danh sách các loại sự kiện' })
    .min(1, 'events: cần ít nhất một loại sự kiện, hoặc *')
    .max(
      WEBHOOK_EVENT_TYPES.length + 1 + deprecatedNames.length,
      `events: tối đa ${WEBHOOK_EVENT_TYPES.length + 1 + deprecatedNames.length} loại sự kiện`,
    )
    .transform((events) =>
      events.includes('*') ? ['*' as const] : [...new Set(events.flatMap(standingFor))],
    ),
});

const webhookAnswer = z
  .object({
    id: recordId,
    url: z.string(),
    events: z.array(eventType),
    createdAt: storedAt,
    previousSecretExpiresAt: storedAt
      .nullable()
      .describe('Until when the secret before the last rotation still signs deliveries too; null: none does'),
  })
  .meta({ id: 'Webhook' });

const newWebhookAnswer = webhookAnswer
  .extend({
    secret: z
      .string()
      .describe(
        'The secret deliveries are signed with (`whsec_` and the base64 of 32 bytes, as Standard Webhooks write it): shown only now, keep it with the receiver',
      ),
  })
  .meta({ id: 'NewWebhook' });

const rotatedSecretAnswer = webhookAnswer
  .extend({
    secret: z
      .string()
      .describe(
        'The new secret (`whsec_…`): shown only now. The one before it signs deliveries too for 24 hours',
      ),
  })
  .meta({ id: 'RotatedWebhookSecret' });

const sentDeliveryAnswer = z
  .object({ deliveryId: recordId.describe("The test delivery's id: its `webhook-id`") })
  .meta({ id: 'SentWebhookDelivery' });

const deliveryAnswer = z
  .object({
    id: recordId.describe("The delivery's id: its `webhook-id` header, the same on every try"),
    type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: storedAt,
    deliveredAt: storedAt.nullable(),
  })
  .meta({ id: 'WebhookDelivery' });

const hookParams = z.object({ id: requestedId(), hookId: requestedId() });
const deliveryParams = z.object({ id: requestedId(), hookId: requestedId(), deliveryId: requestedId() });

const shown = (hook: WebhookRow) => ({ ...hook, events: hook.events as z.infer<typeof eventType>[] });

/** A workspace's webhooks, oldest first (at most WEBHOOKS_PER_WORKSPACE: read whole, paged in memory). */
const WEBHOOKS_ORDER: ListOrder = {
  list: 'webhooks',
  keys: [
    { sql: 'created_at', order: 'asc', type: 'timestamptz' },
    { sql: 'id', order: 'asc', type: 'uuid' },
  ],
};

/** A webhook's last deliveries, newest first (the last 100: read whole, paged in memory). */
const DELIVERIES_ORDER: ListOrder = {
  list: 'webhook-deliveries',
  keys: [
    { sql: 'created_at', order: 'desc', type: 'timestamptz' },
    { sql: 'id', order: 'asc', type: 'uuid' },
  ],
};

/**
 * A workspace's webhooks, all of them its owners' alone ('manage'): where the workspace's events are POSTed,
 * signed with the webhook's secret.
 */
export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { webhooks, commands } = app;
  const cipher = createOwnKeyCipher(app.config.appSecret);
  const mayManage = (workspaceId: string, userId: string) =>
    commands.requireIn(workspaceId, userId, 'manage', 'workspace');

  app.post(
    '/api/workspaces/:id/webhooks',
    { schema: { params: idParams, body: createWebhookBody, response: { 201: newWebhookAnswer } } },
    async (request, reply) => {
      const userId = userIdOf(request);
      const workspaceId = request.params.id;
      await mayManage(workspaceId, userId);
      const url = allowedWebhookUrl(request.body.url, app.config.webhookHosts).href;
      const secret = newWebhookSecret();
      const hook = await webhooks.insert(
        {
          id: randomUUID(),
          workspaceId,
          url,
          events: request.body.events,
          secretSealed: cipher.encrypt(secret),
          createdBy: userId,
        },
        WEBHOOKS_PER_WORKSPACE,
      );
      if (hook === null) throw conflict(`Mỗi workspace có tối đa ${WEBHOOKS_PER_WORKSPACE} webhook`);
      return reply.status(201).send({ ...shown(hook), secret });
    },
  );

  app.get(
    '/api/workspaces/:id/webhooks',
    { schema: { params: idParams, querystring: pageQuery, response: { 200: pagedOr(webhookAnswer) } } },
    async (request) => {
      await mayManage(request.params.id, userIdOf(request));
      const hooks = await webhooks.list(request.params.id);
      return listAnswerInMemory(request.query, WEBHOOKS_ORDER, hooks.map(shown), (hook) => [
        timeKey(hook.createdAt),
        hook.id,
      ]);
    },
  );

  app.delete(
    '/api/workspaces/:id/webhooks/:hookId',
    { schema: { params: hookParams, response: { 204: noContent } } },
    async (request, reply) => {
      await mayManage(request.params.id, userIdOf(request));
      if (!(await webhooks.delete(request.params.id, request.params.hookId))) {
        throw notFound(WEBHOOK_NOT_FOUND);
      }
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/workspaces/:id/webhooks/:hookId/deliveries',
    {
      schema: { params: hookParams, querystring: pageQuery, response: { 200: pagedOr(deliveryAnswer) } },
    },
    async (request) => {
      await mayManage(request.params.id, userIdOf(request));
      const deliveries = await webhooks.deliveries(request.params.id, request.params.hookId);
      if (deliveries === null) throw notFound(WEBHOOK_NOT_FOUND);
      return listAnswerInMemory(request.query, DELIVERIES_ORDER, deliveries, (delivery) => [
        timeKey(delivery.createdAt),
        delivery.id,
      ]);
    },
  );

  app.post(
    '/api/workspaces/:id/webhooks/:hookId/rotate-secret',
    { schema: { params: hookParams, response: { 200: rotatedSecretAnswer } } },
    async (request) => {
      await mayManage(request.params.id, userIdOf(request));
      const secret = newWebhookSecret();
      const until = new Date(app.notifications.now().getTime() + SECRET_ROTATION_OVERLAP_MS);
      const hook = await webhooks.rotate(
        request.params.id,
        request.params.hookId,
        cipher.encrypt(secret),
        until,
      );
      if (hook === null) throw notFound(WEBHOOK_NOT_FOUND);
      return { ...shown(hook), secret };
    },
  );

  app.post(
    '/api/workspaces/:id/webhooks/:hookId/test',
    { schema: { params: hookParams, response: { 202: sentDeliveryAnswer } } },
    async (request, reply) => {
      const userId = userIdOf(request);
      await mayManage(request.params.id, userId);
      const deliveryId = await app.notifications.sendTest(request.params.id, request.params.hookId, userId);
      if (deliveryId === null) throw notFound(WEBHOOK_NOT_FOUND);
      return reply.status(202).send({ deliveryId });
    },
  );

  app.post(
    '/api/workspaces/:id/webhooks/:hookId/deliveries/:deliveryId/retry',
    { schema: { params: deliveryParams, response: { 202: deliveryAnswer } } },
    async (request, reply) => {
      const { id, hookId, deliveryId } = request.params;
      await mayManage(id, userIdOf(request));
      if (!(await app.notifications.retryDelivery(id, hookId, deliveryId))) {
        const delivery = await webhooks.delivery(id, hookId, deliveryId);
        if (delivery === null) throw notFound(DELIVERY_NOT_FOUND);
        throw conflict('Lần gửi này đã thành công: không có gì để gửi lại');
      }
      return reply.status(202).send((await webhooks.delivery(id, hookId, deliveryId))!);
    },
  );
};
