import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { answerOf } from '../executions/execution-answer';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';
import { commandIdOf, idParams } from '../request-schemas';

const runParams = z.object({ id: z.uuid(), stepId: z.uuid() });
const runBody = z
  .object({
    userInput: z.string().max(100_000).default(''),
    /** The loop iteration an 'Execute (lần N)' button runs; without it, the step's first pending work. */
    loopIteration: z.int().min(1).max(100).optional(),
  })
  .default({ userInput: '' });

export async function executionRoutes(app: FastifyInstance) {
  app.get('/api/executions/:id', async (request, reply) => {
    const { id } = idParams.parse(request.params);
    const json = await app.executionViews.viewJson(id, userIdOf(request));
    return reply.type('application/json; charset=utf-8').send(json);
  });

  app.post(
    '/api/executions/:id/steps/:stepId/execute',
    modelCallRateLimit(app.config.modelCallsPerMinute),
    async (request) => {
      const { id, stepId } = runParams.parse(request.params);
      const { userInput, loopIteration } = runBody.parse(request.body ?? undefined);
      const userId = userIdOf(request);
      const { execution, results } = await app.stepRunner.run({
        executionId: id,
        userId,
        stepId,
        userInput,
        commandId: commandIdOf(request),
        loopIteration: loopIteration ?? null,
      });
      return { execution: answerOf(execution), results };
    },
  );

  app.post('/api/executions/:id/stop', async (request) => {
    const { id } = idParams.parse(request.params);
    const userId = userIdOf(request);
    await app.executions.stop(id, userId, commandIdOf(request));
    return app.executionViews.view(id, userId);
  });

  app.post('/api/executions/:id/reset', async (request) => {
    const { id } = idParams.parse(request.params);
    const userId = userIdOf(request);
    await app.executions.handle(
      id,
      userId,
      { type: 'ResetExecution', data: {} },
      { commandId: commandIdOf(request) },
    );
    return app.executionViews.view(id, userId);
  });
}
