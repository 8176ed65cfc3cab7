import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generateWorkflow } from '../../ai';
import { FILLED, isFilled } from '../../domain/filled-text';
import { WORKFLOW_JSON_ORIGINS } from '../../domain/flow/events';
import {
  generatedWorkflowSchema,
  WORKFLOW_DESCRIPTION_MAX_LENGTH,
  workflowJsonSchema,
} from '../../domain/workflow-json';
import { flowAnswer } from '../answer-schemas';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';

/** What a blank description is answered with. */
const DESCRIPTION_REQUIRED = 'Vui lòng nhập mô tả workflow bạn muốn tạo.';

/** A blank description answers the catalogue's own words with no field name in front, so the check sits on the whole body. */
const generateBody = z
  .object({
    description: z
      .string()
      .max(WORKFLOW_DESCRIPTION_MAX_LENGTH, `must be at most ${WORKFLOW_DESCRIPTION_MAX_LENGTH} characters`)
      .meta(FILLED),
    includeTemplateHints: z.boolean().default(true),
  })
  .refine((body) => isFilled(body.description), { message: DESCRIPTION_REQUIRED });

const createBody = z.object({
  workflowJSON: workflowJsonSchema,
  /** Which path made the Workflow JSON, for the flow's history; a plain API call is an import. */
  origin: z.enum(WORKFLOW_JSON_ORIGINS).default('json-import'),
  /** The workspace to make it in (where the caller may edit flows); none: the caller's own flows. */
  workspaceId: z.uuid().optional(),
});

/** Generating a workflow from a description, and creating a flow from Workflow JSON. */
export const aiWorkflowRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/ai/generate-workflow',
    {
      ...modelCallRateLimit(app.config.modelCallsPerMinute),
      schema: { body: generateBody, response: { 200: z.object({ workflow: generatedWorkflowSchema }) } },
    },
    async (request) => {
      const userId = userIdOf(request);
      const { description, includeTemplateHints } = request.body;
      const { provider } = await app.models.forUser(userId);
      return { workflow: await generateWorkflow(provider, description.trim(), { includeTemplateHints }) };
    },
  );

  app.post(
    '/api/ai/create-from-json',
    { schema: { body: createBody, response: { 201: flowAnswer } } },
    async (request, reply) => {
      const { workflowJSON, origin, workspaceId } = request.body;
      const flow = await app.flowCommands.createWithSteps(
        userIdOf(request),
        workflowJSON,
        origin,
        undefined,
        workspaceId ?? null,
      );
      return reply.status(201).send(flow);
    },
  );
};
