import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createStepSchema, updateStepSchema } from '../../domain/flow';
import { noContent, stepAnswer } from '../answer-schemas';
import { userIdOf } from '../plugins/auth';
import { idParams } from '../request-schemas';

export const stepRoutes: FastifyPluginAsyncZod = async (app) => {
  const { flowCommands } = app;

  app.post(
    '/api/steps',
    { schema: { body: createStepSchema, response: { 201: stepAnswer } } },
    async (request, reply) =>
      reply.status(201).send(await flowCommands.addStep(userIdOf(request), request.body)),
  );

  app.put(
    '/api/steps/:id',
    { schema: { params: idParams, body: updateStepSchema, response: { 200: stepAnswer } } },
    async (request) => flowCommands.editStep(request.params.id, userIdOf(request), request.body),
  );

  app.delete(
    '/api/steps/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      await flowCommands.removeStep(request.params.id, userIdOf(request));
      return reply.status(204).send();
    },
  );
};
