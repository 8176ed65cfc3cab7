import type { FastifyInstance } from 'fastify';
import { notFound } from '../../domain/errors';
import { createFlowSchema, updateFlowSchema } from '../../domain/flow';
import { answerOf } from '../executions/execution-answer';
import { readLatestExecutionView } from '../executions/execution-view';
import { userIdOf } from '../plugins/auth';
import { commandIdOf, flowIdParams, idParams } from '../request-schemas';

const FLOW_COLUMNS = 'id, user_id, name, description, status, is_template, created_at, updated_at';

export async function flowRoutes(app: FastifyInstance) {
  const { sql } = app;

  app.get('/api/flows', async (request) => {
    const userId = userIdOf(request);
    return sql`
      SELECT f.id, f.name, f.description, f.status, f.created_at, f.updated_at,
             (SELECT count(*)::int FROM steps s WHERE s.flow_id = f.id) AS step_count,
             (SELECT max(e.started_at) FROM executions e WHERE e.flow_id = f.id) AS last_run
      FROM flows f WHERE f.user_id = ${userId} ORDER BY f.created_at DESC`;
  });

  app.post('/api/flows', async (request, reply) => {
    const userId = userIdOf(request);
    const input = createFlowSchema.parse(request.body);
    const [flow] = await sql`
      INSERT INTO flows (user_id, name, description, status)
      VALUES (${userId}, ${input.name}, ${input.description}, ${input.status ?? 'draft'})
      RETURNING ${sql.unsafe(FLOW_COLUMNS)}`;
    return reply.status(201).send(flow);
  });

  app.get('/api/flows/:id', async (request) => {
    const { id } = idParams.parse(request.params);
    const [flow] = await sql`
      SELECT ${sql.unsafe(FLOW_COLUMNS)} FROM flows WHERE id = ${id} AND user_id = ${userIdOf(request)}`;
    if (!flow) throw notFound('Flow not found');
    return flow;
  });

  app.put('/api/flows/:id', async (request) => {
    const { id } = idParams.parse(request.params);
    const input = updateFlowSchema.parse(request.body);
    const [flow] = await sql`
      UPDATE flows SET
        name = coalesce(${input.name ?? null}, name),
        description = coalesce(${input.description ?? null}, description),
        status = coalesce(${input.status ?? null}, status),
        updated_at = now()
      WHERE id = ${id} AND user_id = ${userIdOf(request)}
      RETURNING ${sql.unsafe(FLOW_COLUMNS)}`;
    if (!flow) throw notFound('Flow not found');
    return flow;
  });

  app.delete('/api/flows/:id', async (request, reply) => {
    const { id } = idParams.parse(request.params);
    const deleted =
      await sql`DELETE FROM flows WHERE id = ${id} AND user_id = ${userIdOf(request)} RETURNING id`;
    if (deleted.length === 0) throw notFound('Flow not found');
    return reply.status(204).send();
  });

  app.get('/api/flows/:flowId/steps', async (request) => {
    const { flowId } = flowIdParams.parse(request.params);
    const userId = userIdOf(request);
    const [flow] = await sql`SELECT id FROM flows WHERE id = ${flowId} AND user_id = ${userId}`;
    if (!flow) throw notFound('Flow not found');
    return sql`SELECT * FROM steps WHERE flow_id = ${flowId} ORDER BY "order", created_at`;
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
    const [flow] = await sql`SELECT id FROM flows WHERE id = ${flowId} AND user_id = ${userId}`;
    if (!flow) throw notFound('Flow not found');
    return readLatestExecutionView(sql, flowId, userId);
  });
}
