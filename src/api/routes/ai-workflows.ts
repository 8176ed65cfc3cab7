import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { generateWorkflow, type resolveProvider } from '../../ai';
import { WORKFLOW_DESCRIPTION_MAX_LENGTH, workflowJsonSchema } from '../../domain/workflow-json';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';
import { modelForUser } from '../user-model';

/** Spec §5: what a blank description is answered with. */
const DESCRIPTION_REQUIRED = 'Vui lòng nhập mô tả workflow bạn muốn tạo.';

const generateBody = z.object({
  description: z
    .string()
    .max(WORKFLOW_DESCRIPTION_MAX_LENGTH, `must be at most ${WORKFLOW_DESCRIPTION_MAX_LENGTH} characters`)
    .refine((text) => text.trim() !== '', DESCRIPTION_REQUIRED),
  includeTemplateHints: z.boolean().default(true),
});

const createBody = z.object({ workflowJSON: workflowJsonSchema });

/** Generating a workflow from a description, and creating a flow from Workflow JSON. */
export async function aiWorkflowRoutes(
  app: FastifyInstance,
  options: { resolveModel?: typeof resolveProvider | undefined },
) {
  app.post(
    '/api/ai/generate-workflow',
    modelCallRateLimit(app.config.modelCallsPerMinute),
    async (request, reply) => {
      const userId = userIdOf(request);
      const parsed = generateBody.safeParse(request.body);
      if (!parsed.success) {
        const blank = parsed.error.issues.find((issue) => issue.message === DESCRIPTION_REQUIRED);
        // The spec's own words, without the field prefix the generic answer puts in front.
        if (blank)
          return reply.status(400).send({ message: DESCRIPTION_REQUIRED, issues: parsed.error.issues });
        throw parsed.error;
      }
      const { description, includeTemplateHints } = parsed.data;
      const { provider } = await modelForUser(app, userId, options.resolveModel);
      return { workflow: await generateWorkflow(provider, description.trim(), { includeTemplateHints }) };
    },
  );

  app.post('/api/ai/create-from-json', async (request, reply) => {
    const userId = userIdOf(request);
    const { workflowJSON } = createBody.parse(request.body);
    const { steps: _steps, ...flow } = await app.flows.createWithSteps(userId, workflowJSON);
    return reply.status(201).send(flow);
  });
}
