import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportedWorkflowSchema, workflowOf } from '../../domain/workflow-export';
import { userIdOf } from '../auth/plugin';
import { idParams } from '../http/request-schemas';

export const flowExportRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The flow as Workflow JSON, ready to copy into the AI Creator's import or to keep. */
  app.get(
    '/api/flows/:id/export',
    { schema: { params: idParams, response: { 200: z.object({ workflow: exportedWorkflowSchema }) } } },
    async (request) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      // Both answer 404 for a flow that is not the user's.
      const [flow, steps] = await Promise.all([
        app.flows.owned(id, userId),
        app.flows.stepSnapshots(id, userId),
      ]);
      return { workflow: workflowOf(flow, steps) };
    },
  );
};
