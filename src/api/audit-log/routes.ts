import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { encodeBase64 } from '../../domain/audit/signed-note';
import { notFound, ruleViolated } from '../../domain/errors';
import { flowStreamId } from '../../domain/flow/events';
import { requestedId } from '../../domain/record-id';
import { executionStreamId } from '../../projections/project-execution-events';
import { userIdOf } from '../auth/plugin';
import { readableExecutionStream } from '../executions';
import { recordId } from '../http/answer-schemas';
import {
  DEFAULT_PAGE_SIZE,
  decodeCursor,
  encodeCursor,
  type ListOrder,
  MAX_PAGE_SIZE,
  pageLimit,
  pageQuery,
} from '../http/pages';
import { idParams, requestTime } from '../http/request-schemas';
import { auditBundle, checkpointRef, checkpointText, MAX_SINCE } from './audit-bundle';
import type { SignedCheckpoint } from './checkpoints';

/** How many executions one workspace bundle may hold. */
export const MAX_BUNDLE_EXECUTIONS = 500;

/** What a size of the log is, in a refusal: the parameter's name comes before it (`from: …`). */
export const SIZE_REFUSED = 'size của checkpoint là số event, một số nguyên từ 0 trở lên viết bằng chữ số';
export const SIZE_TOO_LARGE = `size của checkpoint tối đa là ${Number.MAX_SAFE_INTEGER}`;

/** A size of the log in the query: digits only (not empty, not signed, not 1e3 or 0x10), a safe integer. */
const size = z
  .string({ error: SIZE_REFUSED })
  .regex(/^\d{1,20}$/, { error: SIZE_REFUSED })
  .transform(Number)
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER, { error: SIZE_TOO_LARGE }))
  .describe('A size of the log: how many events, in digits');

/** The checkpoints, newest first: the list its cursors name. */
const CHECKPOINT_ORDER: ListOrder = {
  list: 'audit-checkpoints',
  keys: [{ sql: 'size', order: 'desc', type: 'bigint' }],
};

/** `since`: earlier checkpoints' sizes, comma-separated, each to get a consistency proof in the bundle. */
export const bundleSince = z
  .string()
  .max(200)
  .regex(/^\d+(,\d+)*$/, { error: 'since: các size của checkpoint, cách nhau bằng dấu phẩy' })
  .transform((text) => [...new Set(text.split(',').map(Number))])
  .refine((sizes) => sizes.length <= MAX_SINCE, { error: `since: tối đa ${MAX_SINCE} checkpoint` })
  .refine((sizes) => sizes.every(Number.isSafeInteger), { error: 'since: có một size quá lớn' })
  .optional()
  .describe(
    'Earlier checkpoints (their sizes, comma-separated) the bundle should prove its checkpoint extends',
  );

const checkpointAnswer = z
  .object({
    size: z.int().describe('How many events the log held'),
    at: z.string().describe('When it was signed'),
    rootHash: z.string().describe("The log's tree head at that size (RFC 9162), base64"),
    keyId: z.string().describe("The signing key's ID, 8 hex digits"),
    note: z.string().describe('The checkpoint as a C2SP signed note, whole: what to keep and check'),
  })
  .describe('A signed checkpoint of the audit log')
  .meta({ id: 'AuditCheckpoint' });

const checkpointOf = (checkpoint: SignedCheckpoint): z.infer<typeof checkpointAnswer> => ({
  size: checkpoint.size,
  at: checkpoint.at,
  rootHash: encodeBase64(checkpoint.rootHash),
  keyId: checkpoint.keyId,
  note: checkpoint.note,
});

const checkpointTextAnswer = z.object({ size: z.int(), at: z.string(), note: z.string() });

/** The checkpoint of a size, or the size alone when the log holds no checkpoint of it (never signed, or deleted). */
const checkpointAtSize = z.union([
  checkpointTextAnswer,
  z
    .object({ size: z.int(), at: z.null(), note: z.null() })
    .describe(
      "A size the log holds no checkpoint of: the proof is the tree's alone; check it with a copy kept",
    ),
]);

const provedStreamAnswer = z
  .object({
    streamId: z.string(),
    leaves: z
      .array(z.object({ index: z.int(), position: z.int() }))
      .describe('Every leaf the log holds for the stream, by index'),
    events: z.array(
      z.object({
        position: z.int(),
        type: z.string(),
        actor: z.string().nullable(),
        at: z.string(),
        content: z.string().describe("The event's data as stored; its leaf holds this text's SHA-256"),
        leafIndex: z.int().nullable().describe('Its leaf, or null: the log holds no leaf for it'),
        proof: z.array(z.string()).describe('The inclusion proof at the checkpoint, base64, nearest first'),
      }),
    ),
  })
  .meta({ id: 'AuditProvedStream' });

export const auditBundleAnswer = z
  .object({
    format: z.literal('workbench-audit-bundle/v1'),
    record: z.object({
      kind: z.enum(['execution', 'flow', 'workspace']),
      id: recordId,
      from: z.string().optional(),
      to: z.string().optional(),
    }),
    origin: z.string(),
    publicKey: z.string().describe("The log's verifier key (C2SP note format)"),
    checkpoint: checkpointTextAnswer,
    consistency: z.array(z.object({ from: checkpointAtSize, proof: z.array(z.string()) })),
    streams: z.array(provedStreamAnswer),
  })
  .describe('A record with everything needed to check it offline, without the server or its secret')
  .meta({ id: 'AuditBundle' });

const recordQuery = z.object({
  executionId: requestedId().optional().describe('The execution whose events to prove (or flowId)'),
  flowId: requestedId().optional().describe('The flow whose versions to prove (or executionId)'),
  checkpoint: size.optional().describe('The checkpoint (its size) to prove at; the latest by default'),
});

/** The refusal of a period's end left out or unreadable. */
export const isoTimeNeeded = (field: 'from' | 'to') =>
  `${field}: cần một thời điểm ISO 8601 có múi giờ, ví dụ 2026-01-01T00:00:00Z`;

const workspaceBundleQuery = z.object({
  format: z.enum(['bundle'], { error: 'format: chỉ có bundle' }).default('bundle'),
  from: requestTime(isoTimeNeeded('from')),
  to: requestTime(isoTimeNeeded('to')),
  since: bundleSince,
});

const flowBundleQuery = z.object({
  format: z.enum(['bundle'], { error: 'format: chỉ có bundle' }).default('bundle'),
  since: bundleSince,
});

/** Sends a bundle as a file to keep. */
const bundleFile = (name: string) => ({
  'content-disposition': `attachment; filename="${name}-audit-bundle.json"`,
  'cache-control': 'no-store',
});

/**
 * The audit log's public material and proofs: the public key and the checkpoints for anyone signed in; a
 * record's inclusion proofs and bundles for whoever may read the record (anyone else's id is missing).
 */
export const auditLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auditLog } = app;

  app.get(
    '/api/audit/public-key',
    {
      schema: {
        response: {
          200: z
            .object({
              origin: z.string(),
              keyId: z.string(),
              publicKey: z.string().describe('The verifier key, as C2SP signed notes write it'),
            })
            .meta({ id: 'AuditPublicKey' }),
        },
      },
    },
    async (request) => {
      userIdOf(request);
      const { key } = auditLog;
      return { origin: key.name, keyId: key.keyIdHex, publicKey: key.verifierKey };
    },
  );

  app.get(
    '/api/audit/checkpoints',
    {
      schema: {
        querystring: z.object({
          limit: pageLimit.default(DEFAULT_PAGE_SIZE).describe(`Checkpoints per page (1-${MAX_PAGE_SIZE})`),
          cursor: pageQuery.shape.cursor.describe('The nextCursor of the page before; opaque'),
        }),
        response: {
          200: z.object({ items: z.array(checkpointAnswer), nextCursor: z.string().nullable() }),
        },
      },
    },
    async (request) => {
      userIdOf(request);
      const { limit, cursor } = request.query;
      // A cursor forged, malformed or of another list is a 400 before any query (decodeCursor).
      const before = cursor === undefined ? undefined : (decodeCursor(cursor, CHECKPOINT_ORDER)[0] as number);
      const rows = await auditLog.checkpoints({ limit: limit + 1, before });
      const items = rows.slice(0, limit);
      return {
        items: items.map(checkpointOf),
        nextCursor: rows.length > limit ? encodeCursor(CHECKPOINT_ORDER, [items.at(-1)!.size]) : null,
      };
    },
  );

  app.get(
    '/api/audit/checkpoints/latest',
    { schema: { response: { 200: checkpointAnswer } } },
    async (request) => {
      userIdOf(request);
      // Signed now when the log grew since the latest: the answer covers every event committed before it.
      const latest = await auditLog.checkpoint();
      if (!latest) throw notFound('Audit log còn trống: chưa có checkpoint nào');
      return checkpointOf(latest);
    },
  );

  app.get(
    '/api/audit/proofs/inclusion',
    {
      schema: {
        querystring: recordQuery,
        response: {
          200: z
            .object({ checkpoint: checkpointTextAnswer, streams: z.array(provedStreamAnswer) })
            .meta({ id: 'AuditInclusionProofs' }),
        },
      },
    },
    async (request) => {
      const userId = userIdOf(request);
      const { executionId, flowId, checkpoint: asked } = request.query;
      if ((executionId === undefined) === (flowId === undefined)) {
        throw ruleViolated('executionId hoặc flowId: cần đúng một trong hai');
      }
      let streamId: string;
      if (executionId !== undefined) {
        await readableExecutionStream(app, executionId, userId);
        streamId = executionStreamId(executionId);
      } else {
        await app.flows.owned(flowId!, userId);
        streamId = flowStreamId(flowId!);
      }
      const checkpoint =
        asked === undefined
          ? await auditLog.checkpointCovering([streamId])
          : await auditLog.checkpointOfSize(asked);
      if (checkpoint === null) throw notFound('Không tìm thấy checkpoint');
      return {
        checkpoint: checkpointText(checkpoint),
        streams: await auditLog.provedStreams([streamId], checkpoint.size),
      };
    },
  );

  app.get(
    '/api/audit/proofs/consistency',
    {
      schema: {
        querystring: z.object({ from: size, to: size }),
        response: {
          200: z
            .object({
              from: checkpointAtSize,
              to: checkpointAtSize,
              proof: z
                .array(z.string())
                .describe('The consistency proof (RFC 9162), base64, as the RFC orders it'),
            })
            .meta({ id: 'AuditConsistencyProof' }),
        },
      },
    },
    async (request) => {
      userIdOf(request);
      const { from, to } = request.query;
      if (from > to) throw ruleViolated('from: không được lớn hơn to');
      const { size } = await auditLog.sequence();
      if (to > size) throw notFound(`Audit log có ${size} event, không phải ${to}`);
      const [earlier, later] = await Promise.all([
        auditLog.checkpointOfSize(from),
        auditLog.checkpointOfSize(to),
      ]);
      return {
        from: checkpointRef(from, earlier),
        to: checkpointRef(to, later),
        proof: (await auditLog.consistencyProof(from, to)).map((hash) => encodeBase64(hash)),
      };
    },
  );

  app.get(
    '/api/flows/:id/audit',
    { schema: { params: idParams, querystring: flowBundleQuery, response: { 200: auditBundleAnswer } } },
    async (request, reply) => {
      const { id } = request.params;
      await app.flows.owned(id, userIdOf(request));
      const bundle = await auditBundle(
        auditLog,
        { kind: 'flow', id },
        [flowStreamId(id)],
        request.query.since ?? [],
      );
      return reply.headers(bundleFile(`flow-${id}`)).send(bundle);
    },
  );

  app.get(
    '/api/workspaces/:id/audit',
    {
      schema: { params: idParams, querystring: workspaceBundleQuery, response: { 200: auditBundleAnswer } },
    },
    async (request, reply) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      await app.commands.requireIn(id, userId, 'read', 'execution');
      const { from, to, since } = request.query;
      if (Date.parse(from) > Date.parse(to)) throw ruleViolated('from: không được muộn hơn to');
      const executions = await app.executionViews.inWorkspace(
        id,
        userId,
        { from, to },
        { limit: MAX_BUNDLE_EXECUTIONS + 1, after: null },
      );
      if (executions.length > MAX_BUNDLE_EXECUTIONS) {
        throw ruleViolated(
          `Có hơn ${MAX_BUNDLE_EXECUTIONS} execution bắt đầu giữa from và to: hãy chọn khoảng thời gian ngắn hơn`,
        );
      }
      const bundle = await auditBundle(
        auditLog,
        { kind: 'workspace', id, from, to },
        executions.map((execution) => executionStreamId(execution.id)),
        since ?? [],
      );
      return reply.headers(bundleFile(`workspace-${id}`)).send(bundle);
    },
  );
};
