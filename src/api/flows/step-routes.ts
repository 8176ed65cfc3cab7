import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createStepSchema, updateStepSchema } from '../../domain/flow';
import { userIdOf } from '../auth/plugin';
import { noContent, stepAnswer } from '../http/answer-schemas';
import { entityTagOf, ifMatchOf } from '../http/entity-tags';
import { idParams } from '../http/request-schemas';

export const stepRoutes: FastifyPluginAsyncZod = async (app) => {
  const { flowCommands } = app;

  app.post(
    '/api/steps',
    { schema: { body: createStepSchema, response: { 201: stepAnswer } } },
    async (request, reply) =>
      reply.status(201).send(await flowCommands.addStep(userIdOf(request), request.body)),
  );

  // A step's tag is its flow's version (If-Match and ETag alike).
  app.put(
    '/api/steps/:id',
    { schema: { params: idParams, body: updateStepSchema, response: { 200: stepAnswer } } },
    async (request, reply) => {
      const { id } = request.params;
      const { step, version } = await flowCommands.editStep(
        id,
        userIdOf(request),
        request.body,
        ifMatchOf(request),
      );
      return reply.header('etag', entityTagOf(version)).send(step);
    },
  );

  app.delete(
    '/api/steps/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      const version = await flowCommands.removeStep(request.params.id, userIdOf(request), ifMatchOf(request));
      return reply.status(204).header('etag', entityTagOf(version)).send();
    },
  );
};
