import type { FastifyInstance } from 'fastify';
import { notFound } from '../../domain/errors';
import { workflowOf } from '../../domain/workflow-export';
import { userIdOf } from '../plugins/auth';
import { idParams } from '../request-schemas';

export async function flowExportRoutes(app: FastifyInstance) {
  const { sql } = app;

  /** The flow as Workflow JSON, ready to copy into the AI Creator's import or to keep. */
  app.get('/api/flows/:id/export', async (request) => {
    const { id } = idParams.parse(request.params);
    const userId = userIdOf(request);
    // flowSteps answers 404 for a flow that is not the user's.
    const [steps, [flow]] = await Promise.all([
      app.executions.flowSteps(id, userId),
      sql<{ name: string; description: string }[]>`
        SELECT name, description FROM flows WHERE id = ${id} AND user_id = ${userId}`,
    ]);
    if (!flow) throw notFound('Flow not found');
    return { workflow: workflowOf(flow, steps) };
  });
}
