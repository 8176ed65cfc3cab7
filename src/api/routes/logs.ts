import type { FastifyInstance } from 'fastify';
import { userIdOf } from '../plugins/auth';
import { flowIdParams } from '../request-schemas';

interface StartedEventColumns {
  startedEventId: string;
  executionId: string;
  startedEventPosition: number | null;
  startedEventCommandId: string | null;
}

export async function logRoutes(app: FastifyInstance) {
  const { sql } = app;

  app.get('/api/flows/:flowId/logs', async (request) => {
    const { flowId } = flowIdParams.parse(request.params);
    const flow = await app.flows.owned(flowId, userIdOf(request));
    const rows = await sql<(Record<string, unknown> & StartedEventColumns)[]>`
      SELECT l.id, l.flow_id, l.execution_id, l.step_id, l.step_order, l.started_event_id, l.original_system_prompt,
             l.final_prompt, l.user_input, l.output_mode, l.choices, l.step_labels, l.unresolved_labels, l.model,
             l.key_source, l.ai_response, l.success, l.error_message, l.requested_at,
             e.stream_position AS started_event_position, e.metadata ->> 'commandId' AS started_event_command_id
      FROM ai_request_logs l
      LEFT JOIN events e ON e.event_id = l.started_event_id
      WHERE l.flow_id = ${flowId}
        AND (${flow.logsClearedAt}::timestamptz IS NULL OR l.requested_at > ${flow.logsClearedAt})
      ORDER BY l.requested_at DESC`;
    return rows.map(({ startedEventPosition, startedEventCommandId, ...log }) => ({
      ...log,
      // Where to find the request in the event log: `npm run events -- show <executionId>` lists it there.
      startedEvent: {
        id: log.startedEventId,
        executionId: log.executionId,
        position: startedEventPosition,
        commandId: startedEventCommandId,
      },
    }));
  });

  // The requests stay in the event log (audit); clearing hides them from this list.
  app.delete('/api/flows/:flowId/logs', async (request, reply) => {
    const { flowId } = flowIdParams.parse(request.params);
    await app.flows.clearLogs(flowId, userIdOf(request));
    return reply.status(204).send();
  });
}
