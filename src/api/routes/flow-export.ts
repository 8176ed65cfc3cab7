import type { FastifyInstance } from 'fastify';
import { workflowOf } from '../../domain/workflow-export';
import { userIdOf } from '../plugins/auth';
import { idParams } from '../request-schemas';

export async function flowExportRoutes(app: FastifyInstance) {
  /** The flow as Workflow JSON, ready to copy into the AI Creator's import or to keep. */
  app.get('/api/flows/:id/export', async (request) => {
    const { id } = idParams.parse(request.params);
    const userId = userIdOf(request);
    // Both answer 404 for a flow that is not the user's.
    const [flow, steps] = await Promise.all([
      app.flows.owned(id, userId),
      app.flows.stepSnapshots(id, userId),
    ]);
    return { workflow: workflowOf(flow, steps) };
  });
}
