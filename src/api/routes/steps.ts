import type { FastifyInstance } from 'fastify';
import { createStepSchema, updateStepSchema } from '../../domain/flow';
import { userIdOf } from '../plugins/auth';
import { idParams } from '../request-schemas';

export async function stepRoutes(app: FastifyInstance) {
  const { flows } = app;

  app.post('/api/steps', async (request, reply) => {
    const userId = userIdOf(request);
    const input = createStepSchema.parse(request.body);
    return reply.status(201).send(await flows.addStep(userId, input));
  });

  app.put('/api/steps/:id', async (request) => {
    const { id } = idParams.parse(request.params);
    const input = updateStepSchema.parse(request.body);
    return flows.updateStep(id, userIdOf(request), input);
  });

  app.delete('/api/steps/:id', async (request, reply) => {
    const { id } = idParams.parse(request.params);
    await flows.deleteStep(id, userIdOf(request));
    return reply.status(204).send();
  });
}
