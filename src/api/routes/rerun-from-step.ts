import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { userIdOf } from '../plugins/auth';
import { commandIdOf } from '../request-schemas';
import { rerunFromStep } from '../executions/rerun-from-step';

const rerunParams = z.object({ id: z.uuid(), stepId: z.uuid() });

export async function rerunFromStepRoutes(app: FastifyInstance) {
  /** No model is called: the new execution waits at the chosen step, the steps before it reused. */
  app.post('/api/executions/:id/rerun-from/:stepId', async (request, reply) => {
    const { id, stepId } = rerunParams.parse(request.params);
    const userId = userIdOf(request);
    const executionId = await rerunFromStep(app.executions, id, userId, stepId, commandIdOf(request));
    return reply.status(201).send(await app.executionViews.view(executionId, userId));
  });
}
