import type { FastifyInstance } from 'fastify';
import type { StepSnapshot } from '../../domain/flow';
import { workflowOf } from '../../domain/workflow-export';
import { notFound } from '../errors';
import { userIdOf } from '../plugins/auth';
import { idParams } from '../request-schemas';

export async function flowExportRoutes(app: FastifyInstance) {
  const { sql } = app;

  /** The flow as Workflow JSON, ready to copy into the AI Creator's import or to keep. */
  app.get('/api/flows/:id/export', async (request) => {
    const { id } = idParams.parse(request.params);
    const [flow] = await sql<{ name: string; description: string }[]>`
      SELECT name, description FROM flows WHERE id = ${id} AND user_id = ${userIdOf(request)}`;
    if (!flow) throw notFound('Flow not found');
    const steps = await sql<StepSnapshot[]>`
      SELECT id, "order", name, system_prompt, output_mode, input_sources, choices, loop_target_step_id,
             max_loop_iterations, requires_user_input
      FROM steps WHERE flow_id = ${id} ORDER BY "order", created_at`;
    return { workflow: workflowOf(flow, steps) };
  });
}
