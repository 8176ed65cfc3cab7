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
import { requestedId } from '../../domain/record-id';
import { workflowJsonSchema } from '../../domain/workflow-json';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId, storedAt } from '../http/answer-schemas';
import { listAnswer, pagedOr, pageQuery } from '../http/pages';
import { noFieldsBody } from '../http/request-schemas';
import { modelCallRateLimit } from '../model-calls/rate-limit';
import { MASTER_RUNS_ORDER, MASTER_SESSIONS_ORDER, type NewRow } from './master-sessions-repository';

const sessionIdParams = z.object({ sessionId: requestedId() });
const stepIdParams = z.object({ stepId: requestedId() });
const sessionsQuery = pageQuery.extend({ flowId: requestedId().optional() });
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
const masterStep = z
  .object({
    id: recordId,
    sessionId: recordId,
    order: z.int(),
    stepName: z.string(),
    userInput: z.string(),
    result: z.string(),
    systemPrompt: z.string(),
    stepType: z.enum(MASTER_STEP_TYPES),
    isRequired: z.boolean(),
    model: z
      .string()
      .nullable()
      .describe("The model that answers an ai row (provider:name); null: the server's default"),
    createdAt: storedAt,
    updatedAt: storedAt,
  })
  .meta({ id: 'MasterRow' });
const executeAllOutcome = z.enum(['completed', 'stopped', 'failed']);
/** The session with its rows in order, the rows with a run under way and its stream's position. */
const sessionWithSteps = masterSession
  .extend({
    steps: z.array(masterStep),
    runningStepIds: z.array(recordId),
    executeAll: z
      .object({ runAllId: recordId, startedAt: storedAt, stopRequested: z.boolean() })
      .nullable()
      .describe('The Execute All running on the session; null when none is'),
    version: z.int().min(0),
  })
  .meta({ id: 'MasterSession' });
const executeAllRecord = z.object({
  id: recordId,
  startedAt: storedAt,
  stopRequested: z.boolean(),
  endedAt: storedAt.nullable(),
  outcome: executeAllOutcome.nullable().describe('null while it runs'),
  message: z.string().nullable().describe("why it failed: the failing row's message, or 'interrupted'"),
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
  provider: z.string().nullable().describe('The provider of the model that answered (null: not an ai row)'),
  keySource: z.string().nullable(),
  result: z.string().nullable(),
  /** null while the row is running. */
  success: z.boolean().nullable(),
  errorMessage: z.string().nullable(),
  durationMs: z.int().nullable(),
  inputTokens: z.int().nullable(),
  outputTokens: z.int().nullable(),
  firstTokenMs: z.int().nullable().describe("From the request to the model's first text (null: not known)"),
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
        response: { 200: pagedOr(masterSession.extend({ stepCount: z.int() })) },
      },
    },
    async (request) => {
      const { flowId } = request.query;
      const userId = userIdOf(request);
      return listAnswer(request.query, MASTER_SESSIONS_ORDER, (page) => sessions.list(userId, flowId, page));
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
    {
      schema: { params: sessionIdParams, querystring: pageQuery, response: { 200: pagedOr(masterRun) } },
    },
    async (request) => {
      const { sessionId } = request.params;
      await sessions.session(sessionId, userIdOf(request));
      return listAnswer(request.query, MASTER_RUNS_ORDER, (page) => sessions.runs(sessionId, page));
    },
  );

  app.post(
    '/api/master-mode/standalone',
    { schema: { body: orEmpty(createSessionSchema), response: { 201: sessionWithSteps } } },
    async (request, reply) => {
      const { name, flowId } = request.body;
      const userId = userIdOf(request);
      // Rows run the flow's prompts: only who may run the flow makes a session of it.
      const rows = flowId ? rowsOf(await app.flows.stepSnapshots(flowId, userId, 'run')) : [];
      const session = await master.create(userId, name, flowId ?? null, rows);
      return reply.status(201).send(session);
    },
  );

  app.post(
    '/api/master-mode/import',
    { schema: { body: workflowJsonSchema, response: { 201: sessionWithSteps } } },
    async (request, reply) => {
      const workflow = request.body;
      const rows = rowsOf(workflow.steps.toSorted((a, b) => a.order - b.order));
      const session = await master.create(userIdOf(request), sessionNameForFlow(workflow.name), null, rows);
      return reply.status(201).send(session);
    },
  );

  app.post(
    '/api/master-mode/steps',
    { schema: { body: createMasterStepSchema, response: { 201: masterStep } } },
    async (request, reply) => reply.status(201).send(await master.addRow(request.body, userIdOf(request))),
  );

  app.put(
    '/api/master-mode/steps/:stepId',
    {
      schema: { params: stepIdParams, body: orEmpty(updateMasterStepSchema), response: { 200: masterStep } },
    },
    async (request) => master.changeRow(request.params.stepId, request.body, userIdOf(request)),
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
      await master.deleteRow(request.params.stepId, userIdOf(request));
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
          202: z
            .object({ runAllId: recordId, version: z.int().min(0) })
            .describe(
              "Started: the rows run after this answer. The session's pushed events (and GET …/execute-all/{runAllId}) tell how it goes.",
            ),
        },
      },
    },
    async (request, reply) => {
      const { sessionId } = request.params;
      const started = await master.executeAll(sessionId, userIdOf(request));
      return reply
        .status(202)
        .header('location', `/api/master-mode/session/${sessionId}/execute-all/${started.runAllId}`)
        .send(started);
    },
  );

  app.get(
    '/api/master-mode/session/:sessionId/execute-all/:runAllId',
    {
      schema: {
        params: sessionIdParams.extend({ runAllId: requestedId() }),
        response: { 200: executeAllRecord },
      },
    },
    async (request) => {
      const { sessionId, runAllId } = request.params;
      return master.executeAllRecord(sessionId, runAllId, userIdOf(request));
    },
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

/**
 * A flow's steps (in order) as rows: step references in their prompts become row references, and each row
 * keeps its step's model.
 */
function rowsOf(
  steps: {
    order: number;
    name: string;
    systemPrompt: string;
    requiresUserInput: boolean;
    model?: string | null | undefined;
  }[],
): NewRow[] {
  const asRows = steps.map((step, i) => ({ order: step.order, name: step.name, row: i + 1 }));
  return steps.map((step) => ({
    stepName: step.name,
    systemPrompt: stepReferencesAsRows(step.systemPrompt, asRows),
    isRequired: step.requiresUserInput,
    model: step.model ?? null,
  }));
}
