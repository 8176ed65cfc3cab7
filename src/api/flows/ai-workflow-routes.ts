import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generateWorkflow } from '../../ai';
import { atMostCharacters, FILLED, isFilled } from '../../domain/filled-text';
import { WORKFLOW_JSON_ORIGINS } from '../../domain/flow/events';
import { requestedId } from '../../domain/record-id';
import {
  generatedWorkflowSchema,
  WORKFLOW_DESCRIPTION_MAX_LENGTH,
  workflowJsonSchema,
} from '../../domain/workflow-json';
import { userIdOf } from '../auth/plugin';
import { flowAnswer } from '../http/answer-schemas';
import { modelCallRateLimit } from '../model-calls/rate-limit';

/** What a blank description is answered with. */
const DESCRIPTION_REQUIRED = 'Vui lòng nhập mô tả workflow bạn muốn tạo.';

/** A blank description answers the catalogue's own words with no field name in front, so the check sits on the whole body. */
const generateBody = z
  .object({
    description: z
      .string()
      .max(WORKFLOW_DESCRIPTION_MAX_LENGTH, atMostCharacters(WORKFLOW_DESCRIPTION_MAX_LENGTH))
      .meta(FILLED),
    includeTemplateHints: z.boolean().default(true),
  })
  .refine((body) => isFilled(body.description), { message: DESCRIPTION_REQUIRED });

const createBody = z.object({
  workflowJSON: workflowJsonSchema,
  /** Which path made the Workflow JSON, for the flow's history; a plain API call is an import. */
  origin: z.enum(WORKFLOW_JSON_ORIGINS).default('json-import'),
  /** The workspace to make it in (where the caller may edit flows); none: the caller's own flows. */
  workspaceId: requestedId().optional(),
});

/** A flow made from Workflow JSON, and the models its steps name that this server does not offer. */
const createdAnswer = flowAnswer.extend({
  unavailableModels: z
    .array(z.object({ order: z.int(), name: z.string(), model: z.string() }))
    .describe('Steps naming a model this server does not offer: they run on defaultModel until changed'),
  defaultModel: z.string().describe('The model of a step that names none, or one not offered here'),
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
    { schema: { body: createBody, response: { 201: createdAnswer } } },
    async (request, reply) => {
      const { workflowJSON, origin, workspaceId } = request.body;
      const userId = userIdOf(request);
      const flow = await app.flowCommands.createWithSteps(
        userId,
        workflowJSON,
        origin,
        undefined,
        workspaceId ?? null,
      );
      // The steps keep the model they name (another server may offer it); the answer says which run on the default.
      const { catalog } = app.models;
      const offered = new Set(await catalog.ids(await app.models.ownKeys(userId)));
      const unavailableModels = workflowJSON.steps.flatMap((step) =>
        step.model && !offered.has(step.model)
          ? [{ order: step.order, name: step.name, model: step.model }]
          : [],
      );
      return reply.status(201).send({ ...flow, unavailableModels, defaultModel: await catalog.defaultId() });
    },
  );
};
