import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { flowStreamId } from '../../domain/flow/events';
import { flowVersions } from '../../domain/flow/version-summary';
import { requestedId } from '../../domain/record-id';
import { userIdOf } from '../auth/plugin';
import { flowAnswer, listedExecution, recordId, stepAnswer } from '../http/answer-schemas';
import { type ListOrder, pageAsked, pagedOr, pageInMemory, pageQuery } from '../http/pages';
import { commandIdOf, noFieldsBody, wholeNumber } from '../http/request-schemas';
import { flowVersionOf } from './flow-commands';

const versionParams = z.object({
  id: requestedId(),
  version: wholeNumber(1, 2 ** 31 - 1),
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

/** A flow's versions, oldest first: a new one is always last, so a page's cursor never moves. */
const VERSIONS_ORDER: ListOrder = {
  list: 'flow-versions',
  keys: [{ sql: 'version', order: 'asc', type: 'int' }],
};

/** The flow as it stood at a version. */
const flowVersionAnswer = z.object({ version: z.int(), flow: flowAnswer, steps: z.array(stepAnswer) });

/**
 * A flow's versions (its stream's positions): the list with what each changed and who changed it, the flow as
 * it stood at any of them, and restoring one as a new version. Only the owner's; anyone else's flow is missing.
 */
export const flowVersionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { store, flows, flowCommands } = app;

  app.get(
    '/api/flows/:id/versions',
    {
      schema: {
        params: z.object({ id: requestedId() }),
        querystring: pageQuery,
        response: { 200: pagedOr(versionItem) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      await flows.owned(id, userId);
      const page = pageAsked(request.query, VERSIONS_ORDER);
      const [{ events }, executions] = await Promise.all([
        store.readStream(flowStreamId(id)),
        app.executionViews.startedWithVersions(id, userId),
      ]);
      // Each version's summary is folded from the stream's start: the page is cut from the whole list.
      const versions = flowVersions(events);
      const actor = await app.users.actors(versions.map((entry) => entry.userId));
      const listed = versions.map((entry, i) => {
        const after = versions[i - 1]?.version ?? 0;
        return {
          version: entry.version,
          summary: entry.summary,
          actor: actor(entry.userId),
          at: entry.at,
          executions: executions
            .filter((row) => row.flowVersion > after && row.flowVersion <= entry.version)
            .map(({ flowVersion: _version, ...listed }) => listed),
        };
      });
      return pageInMemory(listed, (entry) => entry.version, page, VERSIONS_ORDER);
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
