import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors';
import { userIdOf } from '../plugins/auth';
import { flowIdParams } from '../request-schemas';

export async function logRoutes(app: FastifyInstance) {
  const { sql } = app;

  app.get('/api/flows/:flowId/logs', async (request) => {
    const { flowId } = flowIdParams.parse(request.params);
    const [flow] = await sql<{ logsClearedAt: Date | null }[]>`
      SELECT logs_cleared_at FROM flows WHERE id = ${flowId} AND user_id = ${userIdOf(request)}`;
    if (!flow) throw notFound('Flow not found');
    return sql`
      SELECT id, flow_id, execution_id, step_id, step_order, started_event_id, original_system_prompt, final_prompt,
             user_input, output_mode, choices, step_labels, unresolved_labels, model, key_source, ai_response,
             success, error_message, requested_at
      FROM ai_request_logs
      WHERE flow_id = ${flowId} AND (${flow.logsClearedAt}::timestamptz IS NULL OR requested_at > ${flow.logsClearedAt})
      ORDER BY requested_at DESC`;
  });

  // The requests stay in the event log (audit); clearing hides them from this list.
  app.delete('/api/flows/:flowId/logs', async (request, reply) => {
    const { flowId } = flowIdParams.parse(request.params);
    const updated = await sql`
      UPDATE flows SET logs_cleared_at = clock_timestamp()
      WHERE id = ${flowId} AND user_id = ${userIdOf(request)} RETURNING id`;
    if (updated.length === 0) throw notFound('Flow not found');
    return reply.status(204).send();
  });
}
