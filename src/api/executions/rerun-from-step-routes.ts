import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requestedId } from '../../domain/record-id';
import { userIdOf } from '../auth/plugin';
import { executionAnswer } from '../http/answer-schemas';
import { commandIdOf, noFieldsBody } from '../http/request-schemas';
import { rerunFromStep } from './rerun-from-step';

const rerunParams = z.object({ id: requestedId(), stepId: requestedId() });

export const rerunFromStepRoutes: FastifyPluginAsyncZod = async (app) => {
  /** No model is called: the new execution waits at the chosen step, the steps before it reused. */
  app.post(
    '/api/executions/:id/rerun-from/:stepId',
    { schema: { params: rerunParams, body: noFieldsBody, response: { 201: executionAnswer } } },
    async (request, reply) => {
      const { id, stepId } = request.params;
      const userId = userIdOf(request);
      const executionId = await rerunFromStep(
        app.executions,
        app.flows,
        id,
        userId,
        stepId,
        commandIdOf(request),
      );
      return reply.status(201).send(await app.executionViews.view(executionId, userId));
    },
  );
};
