import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Sql } from 'postgres';
import { z } from 'zod';
import {
  createMasterStepSchema,
  createSessionSchema,
  MASTER_STEP_TYPES,
  type MasterSessionWithSteps,
  type MasterStep,
  sessionNameForFlow,
  updateMasterStepSchema,
} from '../../domain/master-mode/master-session';
import { stepReferencesAsRows } from '../../domain/master-mode/row-references';
import { workflowJsonSchema } from '../../domain/workflow-json';
import { noContent, recordId, storedAt } from '../answer-schemas';
import { notFound } from '../../domain/errors';
import { SESSION_COLUMNS, STEP_COLUMNS } from '../master-mode/master-mode-service';
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

interface NewRow {
  stepName: string;
  systemPrompt: string;
  isRequired: boolean;
}

/**
 * Master mode: sessions of rows (a name, an input, a prompt, a type, a result) worked like a
 * spreadsheet; rows run one at a time or all in order (see MasterModeService).
 */
export const masterModeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql, masterMode: master } = app;
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
      return sql<(z.output<typeof masterSession> & { stepCount: number })[]>`
      SELECT ${sql.unsafe(SESSION_COLUMNS.replace(/(^|, )/g, '$1m.'))},
             (SELECT count(*)::int FROM master_mode_steps s WHERE s.session_id = m.id) AS step_count
      FROM master_mode_sessions m
      WHERE m.user_id = ${userId} ${flowId ? sql`AND m.flow_id = ${flowId}` : sql``}
      ORDER BY m.updated_at DESC, m.id`;
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
      return sql<z.output<typeof masterRun>[]>`
      SELECT id, step_id, row_number, step_name, step_type, system_prompt, user_input, final_prompt,
             row_references, unresolved_references, model, key_source, result, success, error_message,
             duration_ms, requested_at
      FROM master_mode_runs WHERE session_id = ${sessionId} ORDER BY requested_at DESC, id`;
    },
  );

  app.post(
    '/api/master-mode/standalone',
    { schema: { body: orEmpty(createSessionSchema), response: { 201: sessionWithSteps } } },
    async (request, reply) => {
      const { name, flowId } = request.body;
      const userId = userIdOf(request);
      const rows = flowId ? rowsOf(await app.flows.stepSnapshots(flowId, userId)) : [];
      const session = await createSession(sql, userId, name, flowId ?? null, rows);
      return reply.status(201).send(session);
    },
  );

  app.post(
    '/api/master-mode/import',
    { schema: { body: workflowJsonSchema, response: { 201: sessionWithSteps } } },
    async (request, reply) => {
      const workflow = request.body;
      const rows = rowsOf(workflow.steps.toSorted((a, b) => a.order - b.order));
      const session = await createSession(
        sql,
        userIdOf(request),
        sessionNameForFlow(workflow.name),
        null,
        rows,
      );
      return reply.status(201).send(session);
    },
  );

  app.post(
    '/api/master-mode/steps',
    { schema: { body: createMasterStepSchema, response: { 201: masterStep } } },
    async (request, reply) => {
      const input = request.body;
      const session = await master.session(input.sessionId, userIdOf(request));
      // Without an order the row goes last.
      const [step] = await sql<MasterStep[]>`
      INSERT INTO master_mode_steps
        (session_id, "order", step_name, user_input, result, system_prompt, step_type, is_required)
      VALUES (${session.id},
        COALESCE(${input.order ?? null}::int,
                 (SELECT COALESCE(max("order"), 0) + 1 FROM master_mode_steps WHERE session_id = ${session.id})),
        ${input.stepName}, ${input.userInput}, ${input.result}, ${input.systemPrompt}, ${input.stepType},
        ${input.isRequired})
      RETURNING ${sql.unsafe(STEP_COLUMNS)}`;
      await master.touch(session.id);
      return reply.status(201).send(step!);
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
      const [updated] = await sql<MasterStep[]>`
      UPDATE master_mode_steps SET
        user_input = ${next.userInput}, system_prompt = ${next.systemPrompt}, step_type = ${next.stepType},
        is_required = ${next.isRequired}, step_name = ${next.stepName}, updated_at = now()
      WHERE id = ${stepId}
      RETURNING ${sql.unsafe(STEP_COLUMNS)}`;
      if (!updated) throw notFound('Master mode step not found');
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
      await sql`DELETE FROM master_mode_steps WHERE id = ${stepId}`;
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

/** A session and its first rows, in one transaction. */
async function createSession(
  sql: Sql,
  userId: string,
  name: string,
  flowId: string | null,
  rows: NewRow[],
): Promise<MasterSessionWithSteps> {
  return sql.begin(async (tx) => {
    const [session] = await tx<MasterSessionWithSteps[]>`
      INSERT INTO master_mode_sessions (user_id, flow_id, session_name)
      VALUES (${userId}, ${flowId}, ${name})
      RETURNING ${tx.unsafe(SESSION_COLUMNS)}`;
    const steps =
      rows.length === 0
        ? []
        : await tx<MasterStep[]>`
          INSERT INTO master_mode_steps ${tx(
            rows.map((row, i) => ({
              sessionId: session!.id,
              order: i + 1,
              stepName: row.stepName,
              systemPrompt: row.systemPrompt,
              stepType: 'ai',
              isRequired: row.isRequired,
            })),
          )}
          RETURNING ${tx.unsafe(STEP_COLUMNS)}`;
    return {
      ...session!,
      steps: steps.toSorted((a, b) => a.order - b.order),
      runningStepIds: [],
      version: 0,
    };
  });
}
