import type { Sql } from 'postgres';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { EventStore, LogTailer, RecordedEvent } from '../../eventstore';
import {
  EXECUTION_STREAM_PREFIX,
  executionStreamId,
  toExecutionEvent,
} from '../../projections/project-execution-events';

const clientMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('subscribe'),
    executionId: z.uuid(),
    after: z.number().int().min(0).default(0),
  }),
  z.object({ type: z.literal('unsubscribe'), executionId: z.uuid() }),
]);

interface Subscription {
  lastSent: number;
  /** While the stream is being read, live events wait here so none overtakes the replay. */
  replaying: boolean;
  buffer: RecordedEvent[];
  /** Tokens of a run whose StepRunStarted has not reached this socket yet: they wait for it. */
  heldDeltas: { after: number; message: DeltaMessage }[];
}

interface DeltaMessage {
  type: 'delta';
  executionId: string;
  runId: string;
  text: string;
}

interface Connection {
  socket: WebSocket;
  userId: string;
  subscriptions: Map<string, Subscription>;
}

/**
 * Pushes execution events to subscribed sockets: a replay from the client's position, 'up-to-date',
 * then live events from the process's one log tailer (which also sees other processes' commits).
 * Positions are stream positions; each socket gets every position once, in order.
 */
export class LiveUpdateHub {
  private tailer: LogTailer | undefined;
  private readonly subscribers = new Map<string, Set<Connection>>();
  private readonly connections = new Set<Connection>();
  /** The text so far of each run this process is making, by execution, for sockets that subscribe mid-run. */
  private readonly runTexts = new Map<string, Map<string, { after: number; text: string }>>();
  private readonly executionEventListeners: ((executionId: string) => void)[] = [];

  constructor(
    private readonly store: EventStore,
    private readonly sql: Sql,
  ) {}

  async start() {
    this.tailer = this.store.tail({ from: 'now' });
    this.tailer.onEvents((events) => this.dispatch(events));
    await this.tailer.start();
  }

  async close() {
    await this.tailer?.stop();
    for (const connection of this.connections) connection.socket.close(1001, 'Server shutting down');
    this.connections.clear();
    this.subscribers.clear();
  }

  get connectionCount() {
    return this.connections.size;
  }

  connect(socket: WebSocket, userId: string) {
    const connection: Connection = { socket, userId, subscriptions: new Map() };
    this.connections.add(connection);
    socket.on('message', (raw) => {
      void this.receive(connection, String(raw)).catch(() =>
        this.send(connection, { type: 'error', message: 'Error' }),
      );
    });
    socket.on('close', () => {
      this.connections.delete(connection);
      for (const executionId of connection.subscriptions.keys()) this.unsubscribe(connection, executionId);
    });
  }

  /**
   * Model tokens of a running step, to this process's subscribers; not stored. `after` is the stream
   * position of the run's StepRunStarted: no socket sees a token before that event.
   */
  publishDelta(executionId: string, runId: string, text: string, after: number) {
    const runs = this.runTexts.get(executionId) ?? new Map<string, { after: number; text: string }>();
    const sofar = runs.get(runId);
    runs.set(runId, { after, text: (sofar?.text ?? '') + text });
    this.runTexts.set(executionId, runs);
    const message: DeltaMessage = { type: 'delta', executionId, runId, text };
    for (const connection of this.subscribers.get(executionId) ?? []) {
      const subscription = connection.subscriptions.get(executionId);
      if (!subscription) continue;
      if (subscription.lastSent >= after && subscription.heldDeltas.length === 0)
        this.send(connection, message);
      else subscription.heldDeltas.push({ after, message });
    }
  }

  /** The run has ended: its text is in its event now. */
  forgetRun(executionId: string, runId: string) {
    const runs = this.runTexts.get(executionId);
    runs?.delete(runId);
    if (runs?.size === 0) this.runTexts.delete(executionId);
  }

  /**
   * After 'up-to-date' the client starts its token texts afresh: each run in progress gets its whole text
   * so far as one delta, and the tokens held for it are in that text already.
   */
  private sendRunTexts(connection: Connection, executionId: string, subscription: Subscription) {
    for (const [runId, { after, text }] of this.runTexts.get(executionId) ?? []) {
      if (after > subscription.lastSent) continue;
      subscription.heldDeltas = subscription.heldDeltas.filter((held) => held.message.runId !== runId);
      this.send(connection, { type: 'delta', executionId, runId, text } satisfies DeltaMessage);
    }
  }

  private async receive(connection: Connection, raw: string) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return this.send(connection, { type: 'error', message: 'Messages must be JSON' });
    }
    const parsed = clientMessage.safeParse(json);
    if (!parsed.success) return this.send(connection, { type: 'error', message: 'Unknown message' });
    const message = parsed.data;
    if (message.type === 'unsubscribe') return this.unsubscribe(connection, message.executionId);
    const [owner] = await this.sql<
      { userId: string }[]
    >`SELECT user_id FROM executions WHERE id = ${message.executionId}`;
    if (!owner || owner.userId !== connection.userId) {
      return this.send(connection, {
        type: 'error',
        executionId: message.executionId,
        message: 'Execution not found',
      });
    }
    const subscription: Subscription = {
      lastSent: message.after,
      replaying: true,
      buffer: [],
      heldDeltas: [],
    };
    connection.subscriptions.set(message.executionId, subscription);
    const watchers = this.subscribers.get(message.executionId) ?? new Set<Connection>();
    watchers.add(connection);
    this.subscribers.set(message.executionId, watchers);
    await this.catchUp(connection, message.executionId, subscription);
    this.send(connection, {
      type: 'up-to-date',
      executionId: message.executionId,
      position: subscription.lastSent,
    });
    this.sendRunTexts(connection, message.executionId, subscription);
  }

  private unsubscribe(connection: Connection, executionId: string) {
    connection.subscriptions.delete(executionId);
    const watchers = this.subscribers.get(executionId);
    watchers?.delete(connection);
    if (watchers?.size === 0) this.subscribers.delete(executionId);
  }

  private async catchUp(connection: Connection, executionId: string, subscription: Subscription) {
    subscription.replaying = true;
    const { events } = await this.store.readStream(executionStreamId(executionId), {
      after: subscription.lastSent,
    });
    for (const event of events) this.sendEvent(connection, executionId, subscription, event);
    const waiting = subscription.buffer;
    subscription.buffer = [];
    subscription.replaying = false;
    for (const event of waiting) this.deliver(connection, executionId, subscription, event);
  }

  /** Called for every execution event the tailer sees, whoever appended it. */
  onExecutionEvent(listener: (executionId: string) => void) {
    this.executionEventListeners.push(listener);
  }

  private dispatch(events: RecordedEvent[]) {
    for (const event of events) {
      if (!event.streamId.startsWith(EXECUTION_STREAM_PREFIX)) continue;
      const executionId = event.streamId.slice(EXECUTION_STREAM_PREFIX.length);
      for (const listener of this.executionEventListeners) listener(executionId);
      for (const connection of this.subscribers.get(executionId) ?? []) {
        const subscription = connection.subscriptions.get(executionId);
        if (subscription) this.deliver(connection, executionId, subscription, event);
      }
    }
  }

  private deliver(
    connection: Connection,
    executionId: string,
    subscription: Subscription,
    event: RecordedEvent,
  ) {
    if (subscription.replaying) {
      subscription.buffer.push(event);
    } else if (event.streamPosition === subscription.lastSent + 1) {
      this.sendEvent(connection, executionId, subscription, event);
    } else if (event.streamPosition > subscription.lastSent + 1) {
      // Something in between has not reached this socket: read it from the stream first.
      subscription.buffer.push(event);
      void this.catchUp(connection, executionId, subscription).catch(() => {});
    }
  }

  private sendEvent(
    connection: Connection,
    executionId: string,
    subscription: Subscription,
    event: RecordedEvent,
  ) {
    if (event.streamPosition <= subscription.lastSent) return;
    subscription.lastSent = event.streamPosition;
    this.send(connection, {
      type: 'event',
      executionId,
      position: event.streamPosition,
      event: toExecutionEvent(event),
    });
    while (subscription.heldDeltas[0] && subscription.heldDeltas[0].after <= subscription.lastSent) {
      this.send(connection, subscription.heldDeltas.shift()!.message);
    }
  }

  private send(connection: Connection, message: object) {
    if (connection.socket.readyState === connection.socket.OPEN)
      connection.socket.send(JSON.stringify(message));
  }
}
