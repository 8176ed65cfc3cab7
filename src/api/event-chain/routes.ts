import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../domain/errors';
import { flowStreamId } from '../../domain/flow/events';
import { KEY_MISMATCH_CHECK, type StreamCheck } from '../../eventstore';
import { executionStreamId } from '../../projections/project-execution-events';
import { userIdOf } from '../auth/plugin';
import { readableExecutionStream } from '../executions';
import { recordId } from '../http/answer-schemas';
import { idParams } from '../http/request-schemas';
import { auditCsv, auditEntries } from './audit-trail';

export const recordCheckAnswer = z
  .union([
    z.object({
      verified: z.literal(true),
      events: z.int().describe('How many events the record holds'),
      head: z
        .string()
        .nullable()
        .describe(
          "The last event's hash, in hex. It covers that event alone: whether events were cut off the end shows in the signed audit log",
        ),
    }),
    z.object({
      verified: z.literal(false),
      events: z.int().describe('How many events the record holds'),
      firstBadPosition: z
        .int()
        .describe('The first position whose event was changed, removed, reordered or added from outside'),
    }),
    z.object({
      verified: z.literal(false),
      events: z.int().describe('How many events the record holds'),
      keyMismatch: z
        .literal(true)
        .describe(
          "The server's APP_SECRET is not the one this database's records were made with (its key check failed): they cannot be checked, nor said to be changed",
        ),
      message: z.literal(KEY_MISMATCH_CHECK),
    }),
  ])
  .describe("Whether a record's stored events are the ones the server appended, by their hashes")
  .meta({ id: 'RecordCheck' });

const auditEntryAnswer = z
  .object({
    position: z.int(),
    at: z.string(),
    actor: z.object({ userId: recordId.nullable(), name: z.string().nullable() }),
    type: z.string(),
    summary: z.string().describe('What the event did, in one line'),
    hash: z.string().nullable().describe("The event's stored hash, in hex"),
  })
  .meta({ id: 'AuditEntry' });

const auditAnswer = z
  .object({
    executionId: recordId,
    record: recordCheckAnswer,
    events: z.array(auditEntryAnswer),
  })
  .meta({ id: 'AuditTrail' });

const auditQuery = z.object({
  format: z
    .enum(['json', 'csv'], { error: 'format is json or csv' })
    .default('json')
    .describe('json (the default) or csv'),
});

/** The answer of a check, without the stream's name (the caller named the record). */
function checkAnswer(check: StreamCheck | null): z.infer<typeof recordCheckAnswer> {
  if (check === null) throw notFound('Record not found');
  if (check.verified) return { verified: true, events: check.events, head: check.head };
  if ('keyMismatch' in check)
    return { verified: false, events: check.events, keyMismatch: true, message: KEY_MISMATCH_CHECK };
  return { verified: false, events: check.events, firstBadPosition: check.firstBadPosition };
}

/**
 * A record that proves itself: whether an execution's or a flow's stored events are still the ones the
 * server appended, and an execution's events with their hashes as a file to keep. Whoever may read the
 * record may check it; anyone else's id is missing.
 */
export const eventChainRoutes: FastifyPluginAsyncZod = async (app) => {
  const { store } = app;

  app.get(
    '/api/executions/:id/verify',
    { schema: { params: idParams, response: { 200: recordCheckAnswer } } },
    async (request) => {
      const { id } = request.params;
      await readableExecutionStream(app, id, userIdOf(request));
      return checkAnswer(await store.verifyStream(executionStreamId(id)));
    },
  );

  app.get(
    '/api/flows/:id/verify',
    { schema: { params: idParams, response: { 200: recordCheckAnswer } } },
    async (request) => {
      const { id } = request.params;
      await app.flows.owned(id, userIdOf(request));
      return checkAnswer(await store.verifyStream(flowStreamId(id)));
    },
  );

  app.get(
    '/api/executions/:id/audit',
    {
      schema: {
        params: idParams,
        querystring: auditQuery,
        response: {
          200: {
            description: 'Every event of the execution with its hash, as a file (Content-Disposition)',
            content: {
              'application/json': { schema: auditAnswer },
              'text/csv': {
                schema: z
                  .string()
                  .describe('A header line, then position,time,actor_id,actor,type,summary,hash per event'),
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await readableExecutionStream(app, id, userIdOf(request));
      const streamId = executionStreamId(id);
      const [{ events }, hashes, check] = await Promise.all([
        store.readStream(streamId),
        store.streamHashes(streamId),
        store.verifyStream(streamId),
      ]);
      const actor = await app.users.actors(events.map((event) => event.metadata.userId ?? null));
      const entries = auditEntries(events, hashes, actor);
      const name = `execution-${id}-audit.${request.query.format}`;
      reply.header('content-disposition', `attachment; filename="${name}"`);
      reply.header('cache-control', 'no-store');
      if (request.query.format === 'csv') {
        return reply.type('text/csv; charset=utf-8').send(auditCsv(entries));
      }
      return reply
        .type('application/json; charset=utf-8')
        .send({ executionId: id, record: checkAnswer(check), events: entries });
    },
  );
};
