import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { Sql, TransactionSql } from 'postgres';
import type { WebSocket } from 'ws';
import { onOneConnection } from '../src/api/database/one-connection';
import { EventStore, type Statement } from '../src/eventstore';

/**
 * The floor of the command figures: routes shaped as a start and a step run that do the database work those
 * commands do, round trip for round trip, and nothing else. Each statement stands for the server's own (same
 * tables for the event log, a look-alike table for the read models), with parameters of the sizes the server
 * sends (measured on its connection) and an answer of the size it answers with.
 *
 * A start: read the flow's steps; one transaction of the append (BEGIN travelling with it), then the
 * execution's row with COMMIT. A step run: the execution as the start left it (kept in memory, as the server
 * keeps the state it last decided on); read the steps, the conversation and the user's key together on one
 * connection; one transaction for the run's start (BEGIN with the append, then the request log and the
 * execution's row with COMMIT) and one for its outcome (BEGIN with the append, then the result, the request
 * log, the usage and the execution's row with COMMIT).
 */
const SIZES = {
  startEvent: 635,
  startedExecution: 565,
  runStartedEvent: 720,
  requestLog: 400,
  runningExecution: 820,
  runCompletedEvent: 980,
  stepResult: 460,
  requestLogAnswer: 180,
  usage: 60,
  completedExecution: 850,
  startAnswer: 743,
  // The short answer (Prefer: return=minimal) the bench's step runs ask for, as the web app's do.
  runAnswer: 685,
  approvalEvent: 120,
  // The event inside the message (the server's message for an approval is about 208 bytes).
  pushedEvent: 170,
};

const FLOOR_TABLE = `
  CREATE TABLE IF NOT EXISTS floor_read_models (
    id uuid PRIMARY KEY,
    owner_id uuid NOT NULL,
    data jsonb NOT NULL,
    position bigint NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`;

const streamOf = (executionId: string) => `floor-execution-${executionId}`;

/** A JSON text of about `bytes` bytes. */
const filler = (bytes: number) => JSON.stringify({ text: 'x'.repeat(Math.max(0, bytes - 12)) });

/** The body of an answer of about `bytes` bytes, with the fields a client reads from it. */
const answer = (bytes: number, fields: Record<string, unknown>) => ({ ...fields, filler: 'x'.repeat(bytes) });

export async function floorRoutes(app: FastifyInstance, sql: Sql) {
  await sql.unsafe(FLOOR_TABLE);
  const store = new EventStore(sql);

  app.post('/floor/flows', async () => {
    const flowId = randomUUID();
    await sql`INSERT INTO floor_read_models (id, owner_id, data) VALUES (${flowId}, ${flowId}, ${filler(400)}::text::jsonb)`;
    return { flow: { id: flowId }, step: { id: randomUUID() } };
  });

  /** What the floor's start leaves for its step run: the execution's flow and version. */
  const started = new Map<string, { flowId: string; version: number }>();

  app.post<{ Params: { flowId: string } }>('/floor/flows/:flowId/execute', async (request) => {
    const { flowId } = request.params;
    await readSteps(sql, flowId);
    const executionId = randomUUID();
    await append(store, streamOf(executionId), 0, { flowId }, SIZES.startEvent, (tx) => [
      writeExecution(tx, executionId, flowId, SIZES.startedExecution, 1),
    ]);
    started.set(executionId, { flowId, version: 1 });
    return answer(SIZES.startAnswer, { id: executionId });
  });

  app.post<{ Params: { executionId: string; stepId: string } }>(
    '/floor/executions/:executionId/steps/:stepId/execute',
    async (request) => {
      const { executionId } = request.params;
      const streamId = streamOf(executionId);
      const execution = started.get(executionId);
      if (!execution) throw new Error(`no execution ${executionId}`);
      started.delete(executionId);
      const { flowId, version } = execution;
      await onOneConnection(sql, (connection) => [
        readSteps(connection, flowId),
        readConversation(connection, flowId),
        readOwnKey(connection, flowId),
      ]);
      const logId = randomUUID();
      await append(store, streamId, version, {}, SIZES.runStartedEvent, (tx) => [
        tx`INSERT INTO floor_read_models (id, owner_id, data) VALUES (${logId}, ${executionId}, ${filler(SIZES.requestLog)}::text::jsonb)`,
        writeExecution(tx, executionId, flowId, SIZES.runningExecution, version + 1),
      ]);
      await append(store, streamId, version + 1, {}, SIZES.runCompletedEvent, (tx) => [
        tx`INSERT INTO floor_read_models (id, owner_id, data) VALUES (${randomUUID()}, ${executionId}, ${filler(SIZES.stepResult)}::text::jsonb)`,
        tx`UPDATE floor_read_models SET data = ${filler(SIZES.requestLogAnswer)}::text::jsonb, position = ${version + 2} WHERE id = ${logId} AND position < ${version + 2}`,
        tx`INSERT INTO floor_read_models (id, owner_id, data) VALUES (${randomUUID()}, ${executionId}, ${filler(SIZES.usage)}::text::jsonb)`,
        writeExecution(tx, executionId, flowId, SIZES.completedExecution, version + 2),
      ]);
      return answer(SIZES.runAnswer, { execution: { id: executionId }, results: [] });
    },
  );

  await pushFloorRoutes(app, store);
}

/**
 * The floor of the push figure: a websocket that answers a subscription at once, and a command that appends
 * one event (BEGIN with the append, then a read-model row with COMMIT, as an approval), answers, and then
 * sends one ready-made message of the server's size to every subscribed socket. What is left is the cost of the
 * append and of the sockets themselves: no log read, no session, no per-socket checks.
 */
async function pushFloorRoutes(app: FastifyInstance, store: EventStore) {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const subscribed = new Set<WebSocket>();
  const streamId = streamOf(randomUUID());
  const rowId = randomUUID();
  let position = 0;
  let pushing = Promise.resolve();

  app.get('/floor/ws', { websocket: true }, (socket) => {
    socket.on('message', () => {
      subscribed.add(socket);
      socket.send(JSON.stringify({ type: 'up-to-date', position }));
    });
    socket.on('close', () => subscribed.delete(socket));
  });

  app.get('/floor/push', async () => ({ position }));

  app.post('/floor/push', async () => {
    // One command at a time, as the server's commands on one stream are.
    const pushed = pushing.then(async () => {
      await append(store, streamId, position, {}, SIZES.approvalEvent, (tx) => [
        writeExecution(tx, rowId, rowId, SIZES.completedExecution, position + 1),
      ]);
      position++;
      const event = JSON.parse(filler(SIZES.pushedEvent));
      const message = Buffer.from(JSON.stringify({ type: 'event', position, event }));
      // As on the server, the command answers at its commit and the push follows it, so a command may
      // arrive while the sockets are still being written to.
      setImmediate(() => {
        for (const socket of subscribed) socket.send(message, { binary: false });
      });
      return position;
    });
    pushing = pushed.then(
      () => {},
      () => {},
    );
    return { position: await pushed };
  });
}

function readSteps(sql: Sql, flowId: string) {
  return sql`SELECT data FROM floor_read_models WHERE id = ${flowId}`;
}

function readConversation(sql: Sql, flowId: string) {
  return sql`SELECT data, position FROM floor_read_models WHERE id = ${flowId} AND position >= 0`;
}

/** Finds nothing, as the server's lookup of a user's own model key does for the bench user. */
function readOwnKey(sql: Sql, flowId: string) {
  return sql`SELECT owner_id FROM floor_read_models WHERE id = ${flowId} AND position < 0`;
}

/**
 * The server's append of one event at `version` (0: a new stream) through the event store, as a command's:
 * BEGIN with the append, then `statements` (the read models) with COMMIT.
 */
function append(
  store: EventStore,
  streamId: string,
  version: number,
  data: Record<string, unknown>,
  bytes: number,
  statements: (tx: TransactionSql) => Statement[],
) {
  return store.append(
    streamId,
    'floor',
    version === 0 ? 'no_stream' : version,
    [{ type: 'FloorEvent', data: { ...data, ...JSON.parse(filler(bytes)) } }],
    { withStatements: statements },
  );
}

function writeExecution(
  tx: TransactionSql,
  executionId: string,
  flowId: string,
  bytes: number,
  position: number,
) {
  return tx`
    INSERT INTO floor_read_models (id, owner_id, data, position)
    VALUES (${executionId}, ${flowId}, ${filler(bytes)}::text::jsonb, ${position})
    ON CONFLICT (id) DO UPDATE SET data = excluded.data, position = excluded.position, updated_at = now()`;
}
