import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createFlowSchema, updateFlowSchema } from '../../domain/flow';
import { requestedId } from '../../domain/record-id';
import { userIdOf } from '../auth/plugin';
import { answerOf } from '../executions';
import {
  executionAnswer,
  flowAnswer,
  noContent,
  recordId,
  stepAnswer,
  storedAt,
} from '../http/answer-schemas';
import { entityTagOf, ifMatchOf, tagAnswer } from '../http/entity-tags';
import { listAnswer, pagedOr, pageQuery } from '../http/pages';
import { commandIdOf, flowIdParams, idParams, noFieldsBody } from '../http/request-schemas';
import { FLOWS_ORDER } from './flows-repository';

/** A row of the flows list. */
const flowListItem = z.object({
  id: recordId,
  name: z.string(),
  description: z.string(),
  status: z.string(),
  createdAt: storedAt,
  updatedAt: storedAt,
  stepCount: z.int(),
  /** When the flow was last run; null when never. */
  lastRun: storedAt.nullable(),
  userId: recordId.describe(
    "The flow's owner: who made it, or brought it in; only they move it back to their own flows",
  ),
  reviewRules: z
    .boolean()
    .describe('Whether a step has a review rule: in a workspace only its owners move such a flow out of it'),
});

const flowsQuery = pageQuery.extend({
  workspaceId: requestedId().optional().describe("A workspace's flows; none: the user's own flows"),
});

const moveBody = z.strictObject({
  workspaceId: requestedId()
    .nullable()
    .describe("The workspace to move the flow into; null: back to its owner's own flows"),
});

export const flowRoutes: FastifyPluginAsyncZod = async (app) => {
  const { flows, flowCommands } = app;

  app.get(
    '/api/flows',
    { schema: { querystring: flowsQuery, response: { 200: pagedOr(flowListItem) } } },
    async (request) => {
      const userId = userIdOf(request);
      const { workspaceId } = request.query;
      // A workspace one is not a member of is missing, like any record of it.
      if (workspaceId !== undefined) await app.commands.requireIn(workspaceId, userId, 'read', 'flow');
      return listAnswer(request.query, FLOWS_ORDER, (page) => flows.list(userId, page, workspaceId ?? null));
    },
  );

  app.post(
    '/api/flows/:id/move',
    { schema: { params: idParams, body: moveBody, response: { 200: flowAnswer } } },
    async (request, reply) => {
      const { flow, version } = await flowCommands.move(
        request.params.id,
        userIdOf(request),
        request.body.workspaceId,
        {
          commandId: commandIdOf(request),
          expected: ifMatchOf(request),
        },
      );
      return reply.header('etag', entityTagOf(version)).send(flow);
    },
  );

  app.post(
    '/api/flows',
    { schema: { body: createFlowSchema, response: { 201: flowAnswer } } },
    async (request, reply) => {
      const flow = await flowCommands.create(userIdOf(request), request.body, commandIdOf(request));
      return reply.status(201).send(flow);
    },
  );

  app.get(
    '/api/flows/:id',
    { schema: { params: idParams, response: { 200: flowAnswer } } },
    async (request, reply) => {
      const flow = await flows.owned(request.params.id, userIdOf(request));
      return tagAnswer(request, reply, flow.version) ? reply : flow;
    },
  );

  app.put(
    '/api/flows/:id',
    { schema: { params: idParams, body: updateFlowSchema, response: { 200: flowAnswer } } },
    async (request, reply) => {
      const { id } = request.params;
      const { flow, version } = await flowCommands.revise(
        id,
        userIdOf(request),
        request.body,
        ifMatchOf(request),
      );
      return reply.header('etag', entityTagOf(version)).send(flow);
    },
  );

  app.delete(
    '/api/flows/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      await flowCommands.delete(request.params.id, userIdOf(request), ifMatchOf(request));
      return reply.status(204).send();
    },
  );

  // The steps' tag is their flow's version: every change of a step is a version of its flow.
  app.get(
    '/api/flows/:flowId/steps',
    { schema: { params: flowIdParams, response: { 200: z.array(stepAnswer) } } },
    async (request, reply) => {
      const { steps, version } = await flows.steps(request.params.flowId, userIdOf(request));
      return tagAnswer(request, reply, version) ? reply : steps;
    },
  );

  app.post(
    '/api/flows/:flowId/execute',
    { schema: { params: flowIdParams, body: noFieldsBody, response: { 201: executionAnswer } } },
    async (request, reply) => {
      const userId = userIdOf(request);
      const started = await app.executions.start(request.params.flowId, userId, commandIdOf(request));
      return reply.status(201).send(answerOf(started));
    },
  );

  app.get(
    '/api/flows/:flowId/executions/latest',
    { schema: { params: flowIdParams, response: { 200: executionAnswer.nullable() } } },
    async (request) => {
      const { flowId } = request.params;
      const userId = userIdOf(request);
      await flows.owned(flowId, userId);
      return app.executionViews.latest(flowId, userId);
    },
  );
};
