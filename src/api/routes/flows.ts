import type { FastifyInstance } from 'fastify';
import { createFlowSchema, updateFlowSchema } from '../../domain/flow';
import { answerOf } from '../execution-answer';
import { readLatestExecutionView } from '../execution-view';
import { userIdOf } from '../plugins/auth';
import { commandIdOf, flowIdParams, idParams } from '../request-schemas';

export async function flowRoutes(app: FastifyInstance) {
  const { sql, flows } = app;

  app.get('/api/flows', async (request) => flows.list(userIdOf(request)));

  app.post('/api/flows', async (request, reply) => {
    const userId = userIdOf(request);
    const input = createFlowSchema.parse(request.body);
    return reply.status(201).send(await flows.create(userId, input));
  });

  app.get('/api/flows/:id', async (request) => {
    const { id } = idParams.parse(request.params);
    return flows.owned(id, userIdOf(request));
  });

  app.put('/api/flows/:id', async (request) => {
    const { id } = idParams.parse(request.params);
    const input = updateFlowSchema.parse(request.body);
    return flows.update(id, userIdOf(request), input);
  });

  app.delete('/api/flows/:id', async (request, reply) => {
    const { id } = idParams.parse(request.params);
    await flows.delete(id, userIdOf(request));
    return reply.status(204).send();
  });

  app.get('/api/flows/:flowId/steps', async (request) => {
    const { flowId } = flowIdParams.parse(request.params);
    return flows.steps(flowId, userIdOf(request));
  });

  app.post('/api/flows/:flowId/execute', async (request, reply) => {
    const { flowId } = flowIdParams.parse(request.params);
    const userId = userIdOf(request);
    const started = await app.executions.start(flowId, userId, commandIdOf(request));
    return reply.status(201).send(answerOf(started));
  });

  app.get('/api/flows/:flowId/executions/latest', async (request) => {
    const { flowId } = flowIdParams.parse(request.params);
    const userId = userIdOf(request);
    await flows.owned(flowId, userId);
    return readLatestExecutionView(sql, flowId, userId);
  });
}
