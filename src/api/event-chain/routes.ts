import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../domain/errors';
import { oneOf } from '../../domain/filled-text';
import { flowStreamId } from '../../domain/flow/events';
import { KEY_MISMATCH_CHECK, type StreamCheck } from '../../eventstore';
import { executionStreamId } from '../../projections/project-execution-events';
import { auditBundle, auditBundleAnswer, bundleSince } from '../audit-log';
import { userIdOf } from '../auth/plugin';
import { readableExecutionStream } from '../executions';
import { recordId } from '../http/answer-schemas';
import { idParams } from '../http/request-schemas';
import { auditCsv, auditEntries } from './audit-trail';

/** The latest signed checkpoint of the audit log, as a record check tells it. */
const recordCheckpoint = z
  .object({
    size: z.int().describe('How many leaves (events) the checkpointed log held'),
    at: z.string().describe('When the checkpoint was signed (ISO 8601)'),
    coversRecord: z.boolean().describe('Whether the checkpoint covers every event of this record'),
    signatureVerified: z
      .boolean()
      .describe("Whether the checkpoint's Ed25519 signature checks with the server's public key"),
  })
  .meta({ id: 'RecordCheckpoint' });

const checkpointField = recordCheckpoint
  .nullable()
  .optional()
  .describe('The latest signed checkpoint of the audit log; null: none was made yet');

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
      checkpoint: checkpointField,
    }),
    z.object({
      verified: z.literal(false),
      events: z.int().describe('How many events the record holds'),
      firstBadPosition: z
        .int()
        .describe('The first position whose event was changed, removed, reordered or added from outside'),
      checkpoint: checkpointField,
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
      checkpoint: checkpointField,
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
    .enum(['json', 'csv', 'bundle'], { error: `format: ${oneOf(['json', 'csv', 'bundle'])}` })
    .default('json')
    .describe(
      'json (the default), csv, or bundle: the events with their proofs in the signed audit log, to check offline',
    ),
  since: bundleSince,
});

/** The answer of a check, without the stream's name (the caller named the record). */
function checkAnswer(check: StreamCheck | null): z.infer<typeof recordCheckAnswer> {
  if (check === null) throw notFound('Không tìm thấy bản ghi');
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

  /** A record's check by its hashes, with the latest checkpoint of the audit log and whether it covers it. */
  const checkedRecord = async (streamId: string) => {
    const [check, checkpoint] = await Promise.all([
      store.verifyStream(streamId),
      app.auditLog.coverage(streamId),
    ]);
    return { ...checkAnswer(check), checkpoint };
  };

  app.get(
    '/api/executions/:id/verify',
    { schema: { params: idParams, response: { 200: recordCheckAnswer } } },
    async (request) => {
      const { id } = request.params;
      await readableExecutionStream(app, id, userIdOf(request));
      return checkedRecord(executionStreamId(id));
    },
  );

  app.get(
    '/api/flows/:id/verify',
    { schema: { params: idParams, response: { 200: recordCheckAnswer } } },
    async (request) => {
      const { id } = request.params;
      await app.flows.owned(id, userIdOf(request));
      return checkedRecord(flowStreamId(id));
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
              'application/json': { schema: z.union([auditAnswer, auditBundleAnswer]) },
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
      if (request.query.format === 'bundle') {
        const bundle = await auditBundle(
          app.auditLog,
          { kind: 'execution', id },
          [streamId],
          request.query.since ?? [],
        );
        reply.header('content-disposition', `attachment; filename="execution-${id}-audit-bundle.json"`);
        reply.header('cache-control', 'no-store');
        return reply.type('application/json; charset=utf-8').send(bundle);
      }
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
