import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { generateWorkflow, type resolveProvider } from '../../ai';
import { normaliseStepConfig } from '../../domain/flow';
import {
  inputSourceIds,
  WORKFLOW_DESCRIPTION_MAX_LENGTH,
  type WorkflowJson,
  workflowJsonSchema,
} from '../../domain/workflow-json';
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

const FLOW_COLUMNS = 'id, user_id, name, description, status, is_template, created_at, updated_at';

/** Generating a workflow from a description, and creating a flow from Workflow JSON. */
export async function aiWorkflowRoutes(
  app: FastifyInstance,
  options: { resolveModel?: typeof resolveProvider | undefined },
) {
  const { sql } = app;

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
    const flow = await createFlowFrom(workflowJSON, userId);
    return reply.status(201).send(flow);
  });

  /** The flow and all its steps in one transaction: a workflow is created whole or not at all. */
  function createFlowFrom(workflow: WorkflowJson, userId: string) {
    const idOfOrder = new Map(workflow.steps.map((step) => [step.order, randomUUID()]));
    return sql.begin(async (tx) => {
      const [flow] = await tx`
        INSERT INTO flows (user_id, name, description)
        VALUES (${userId}, ${workflow.name}, ${workflow.description || workflow.name})
        RETURNING ${tx.unsafe(FLOW_COLUMNS)}`;
      const steps = workflow.steps.map((step) => {
        const row = normaliseStepConfig({
          id: idOfOrder.get(step.order)!,
          flowId: flow!.id as string,
          order: step.order,
          name: step.name,
          systemPrompt: step.systemPrompt,
          outputMode: step.outputMode,
          inputSources: inputSourceIds(step, idOfOrder),
          choices: step.choices,
          loopTargetStepId: null,
          maxLoopIterations: step.maxLoopIterations,
          currentLoopIteration: 0,
          requiresUserInput: step.requiresUserInput,
        });
        return { ...row, inputSources: tx.json(row.inputSources), choices: tx.json(row.choices) };
      });
      await tx`INSERT INTO steps ${tx(steps as unknown as Record<string, unknown>[])}`;
      return flow;
    });
  }
}
