import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createMasterStepSchema,
  createSessionSchema,
  MASTER_STEP_TYPES,
  sessionNameForFlow,
  updateMasterStepSchema,
} from '../../domain/master-mode/master-session';
import { stepReferencesAsRows } from '../../domain/master-mode/row-references';
import { workflowJsonSchema } from '../../domain/workflow-json';
import { noContent, recordId, storedAt } from '../answer-schemas';
import type { NewRow } from '../master-mode/master-mode-sessions';
import { modelCallRateLimit } from '../model-call-rate-limit';
import { userIdOf } from '../plugins/auth';
import { noFieldsBody } from '../request-schemas';

const sessionIdParams = z.object({ sessionId: z.uuid() });
const stepIdParams = z.object({ stepId: z.uuid() });
const sessionsQuery = z.object({ flowId: z.uuid().optional() });
/** No body at all (it reaches validation as null) is read as an empty one. */
const orEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((body) => body ?? {}, schema);

const masterSession = z.object({
  id: recordId,
  userId: recordId,
  flowId: recordId.nullable(),
  sessionName: z.string(),
  createdAt: storedAt,
  updatedAt: storedAt,
});
const masterStep = z.object({
  id: recordId,
  sessionId: recordId,
  order: z.int(),
  stepName: z.string(),
  userInput: z.string(),
  result: z.string(),
  systemPrompt: z.string(),
  stepType: z.enum(MASTER_STEP_TYPES),
  isRequired: z.boolean(),
  createdAt: storedAt,
  updatedAt: storedAt,
});
/** The session with its rows in order, the rows with a run under way and its stream's position. */
const sessionWithSteps = masterSession.extend({
  steps: z.array(masterStep),
  runningStepIds: z.array(recordId),
  version: z.int().min(0),
});
const masterRun = z.object({
  id: recordId,
  stepId: recordId,
  rowNumber: z.int(),
  stepName: z.string(),
  stepType: z.enum(MASTER_STEP_TYPES),
  systemPrompt: z.string(),
  userInput: z.string(),
  finalPrompt: z.string(),
  rowReferences: z.record(z.string(), z.string()),
  unresolvedReferences: z.array(z.int()),
  model: z.string().nullable(),
  keySource: z.string().nullable(),
  result: z.string().nullable(),
  /** null while the row is running. */
  success: z.boolean().nullable(),
  errorMessage: z.string().nullable(),
  durationMs: z.int().nullable(),
  requestedAt: storedAt,
});

/**
 * Master mode: sessions of rows (a name, an input, a prompt, a type, a result) worked like a
 * spreadsheet; rows run one at a time or all in order (see MasterModeService).
 */
export const masterModeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { masterMode: master, masterSessions: sessions } = app;
  const limit = modelCallRateLimit(app.config.modelCallsPerMinute);

  app.get(
    '/api/master-mode/sessions',
    {
      schema: {
        querystring: sessionsQuery,
        response: { 200: z.array(masterSession.extend({ stepCount: z.int() })) },
      },
    },
    async (request) => {
      const { flowId } = request.query;
      const userId = userIdOf(request);
      return sessions.list(userId, flowId);
    },
  );

  app.get(
    '/api/master-mode/session/:sessionId',
    { schema: { params: sessionIdParams, response: { 200: sessionWithSteps } } },
    async (request) => master.sessionWithSteps(request.params.sessionId, userIdOf(request)),
  );

  /** What ran in the session, newest first: the audit of its rows' runs. */
  app.get(
    '/api/master-mode/session/:sessionId/runs',
    { schema: { params: sessionIdParams, response: { 200: z.array(masterRun) } } },
    async (request) => {
      const { sessionId } = request.params;
      await master.session(sessionId, userIdOf(request));
      return sessions.runs(sessionId);
    },
  );

  app.post(
    '/api/master-mode/standalone',
    { schema: { body: orEmpty(createSessionSchema), response: { 201: sessionWithSteps } } },
    async (request, reply) => {
      const { name, flowId } = request.body;
      const userId = userIdOf(request);
      const rows = flowId ? rowsOf(await app.flows.stepSnapshots(flowId, userId)) : [];
      const session = await sessions.create(userId, name, flowId ?? null, rows);
      return reply.status(201).send(session);
    },
  );

  app.post(
    '/api/master-mode/import',
    { schema: { body: workflowJsonSchema, response: { 201: sessionWithSteps } } },
    async (request, reply) => {
      const workflow = request.body;
      const rows = rowsOf(workflow.steps.toSorted((a, b) => a.order - b.order));
      const session = await sessions.create(userIdOf(request), sessionNameForFlow(workflow.name), null, rows);
      return reply.status(201).send(session);
    },
  );

  app.post(
    '/api/master-mode/steps',
    { schema: { body: createMasterStepSchema, response: { 201: masterStep } } },
    async (request, reply) => {
      const input = request.body;
      const session = await master.session(input.sessionId, userIdOf(request));
      const step = await sessions.addRow(session.id, input);
      await master.touch(session.id);
      return reply.status(201).send(step);
    },
  );

  app.put(
    '/api/master-mode/steps/:stepId',
    {
      schema: { params: stepIdParams, body: orEmpty(updateMasterStepSchema), response: { 200: masterStep } },
    },
    async (request) => {
      const { stepId } = request.params;
      const changes = request.body;
      const current = await master.ownedRow(stepId, userIdOf(request));
      const next = { ...current, ...changes };
      const updated = await sessions.changeRow(stepId, next);
      await master.touch(current.sessionId);
      return updated;
    },
  );

  app.delete(
    '/api/master-mode/session/:sessionId',
    { schema: { params: sessionIdParams, response: { 204: noContent } } },
    async (request, reply) => {
      await master.deleteSession(request.params.sessionId, userIdOf(request));
      return reply.status(204).send();
    },
  );

  app.delete(
    '/api/master-mode/steps/:stepId',
    { schema: { params: stepIdParams, response: { 204: noContent } } },
    async (request, reply) => {
      const { stepId } = request.params;
      const current = await master.ownedRow(stepId, userIdOf(request));
      await sessions.deleteRow(stepId);
      await master.touch(current.sessionId);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/master-mode/execute/:stepId',
    { ...limit, schema: { params: stepIdParams, body: noFieldsBody, response: { 200: masterStep } } },
    async (request) => master.executeRow(request.params.stepId, userIdOf(request)),
  );

  app.post(
    '/api/master-mode/execute-all/:sessionId',
    {
      ...limit,
      schema: {
        params: sessionIdParams,
        body: noFieldsBody,
        response: {
          200: z.object({ outcome: z.enum(['completed', 'stopped']), session: sessionWithSteps }),
        },
      },
    },
    async (request) => master.executeAll(request.params.sessionId, userIdOf(request)),
  );

  app.post(
    '/api/master-mode/stop/:sessionId',
    {
      schema: {
        params: sessionIdParams,
        body: noFieldsBody,
        response: { 200: z.object({ stopped: z.boolean().describe('false: nothing was running') }) },
      },
    },
    async (request) => ({ stopped: await master.stop(request.params.sessionId, userIdOf(request)) }),
  );

  app.post(
    '/api/master-mode/reset/:sessionId',
    { schema: { params: sessionIdParams, body: noFieldsBody, response: { 200: sessionWithSteps } } },
    async (request) => master.reset(request.params.sessionId, userIdOf(request)),
  );
};

/** A flow's steps (in order) as rows: step references in their prompts become row references. */
function rowsOf(
  steps: { order: number; name: string; systemPrompt: string; requiresUserInput: boolean }[],
): NewRow[] {
  const asRows = steps.map((step, i) => ({ order: step.order, name: step.name, row: i + 1 }));
  return steps.map((step) => ({
    stepName: step.name,
    systemPrompt: stepReferencesAsRows(step.systemPrompt, asRows),
    isRequired: step.requiresUserInput,
  }));
}
