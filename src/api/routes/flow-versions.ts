import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { shownStatus } from '../../domain/execution/queries';
import { flowStreamId } from '../../domain/flow-history/flow-events';
import type { ExecutionRow } from '../../projections/execution-row';
import { flowVersions } from '../../domain/flow-history/version-summary';
import { actorNames } from '../actor-names';
import { flowAnswer, listedExecution, recordId, stepAnswer } from '../answer-schemas';
import { flowVersionOf } from '../flows/flow-commands';
import { userIdOf } from '../plugins/auth';
import { commandIdOf, noFieldsBody } from '../request-schemas';

const versionParams = z.object({
  id: z.uuid(),
  version: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

const versionItem = z.object({
  version: z.int(),
  /** What the version changed, in plain words. */
  summary: z.string(),
  actor: z.object({ userId: recordId.nullable(), name: z.string().nullable() }),
  at: z.string(),
  /** The executions that started from this version, oldest first. */
  executions: z.array(listedExecution),
});

/** The flow as it stood at a version. */
const flowVersionAnswer = z.object({ version: z.int(), flow: flowAnswer, steps: z.array(stepAnswer) });

/**
 * A flow's versions (its stream's positions): the list with what each changed and who changed it, the flow as
 * it stood at any of them, and restoring one as a new version. Only the owner's; anyone else's flow is missing.
 */
export const flowVersionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql, store, flows, flowCommands } = app;

  app.get(
    '/api/flows/:id/versions',
    { schema: { params: z.object({ id: z.uuid() }), response: { 200: z.array(versionItem) } } },
    async (request) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      await flows.owned(id, userId);
      const [{ events }, executions] = await Promise.all([
        store.readStream(flowStreamId(id)),
        sql<(Pick<ExecutionRow, 'id' | 'status' | 'runs' | 'startedAt'> & { flowVersion: number })[]>`
          SELECT id, status, runs, started_at, flow_version FROM executions
          WHERE flow_id = ${id} AND user_id = ${userId} AND flow_version IS NOT NULL
          ORDER BY started_at, id`,
      ]);
      const names = await actorNames(sql, events);
      const versions = flowVersions(events);
      return versions.map((entry, i) => {
        const after = versions[i - 1]?.version ?? 0;
        return {
          version: entry.version,
          summary: entry.summary,
          actor: { userId: entry.userId, name: entry.userId ? (names.get(entry.userId) ?? null) : null },
          at: entry.at,
          executions: executions
            .filter((row) => row.flowVersion > after && row.flowVersion <= entry.version)
            .map((row) => ({ id: row.id, status: shownStatus(row), startedAt: row.startedAt.toISOString() })),
        };
      });
    },
  );

  app.get(
    '/api/flows/:id/versions/:version',
    { schema: { params: versionParams, response: { 200: flowVersionAnswer } } },
    async (request) => {
      const { id, version } = request.params;
      const past = await flowCommands.versionState(id, userIdOf(request), version);
      return flowVersionOf(past.state, past.version);
    },
  );

  app.post(
    '/api/flows/:id/restore/:version',
    { schema: { params: versionParams, body: noFieldsBody, response: { 200: flowVersionAnswer } } },
    async (request) => {
      const { id, version } = request.params;
      return flowCommands.restore(id, userIdOf(request), version, commandIdOf(request));
    },
  );
};
