import type { Sql } from 'postgres';
import type { WebSocket } from 'ws';
import { EXECUTION_STREAM_PREFIX } from '../../domain/execution/stream';
import {
  clientMessageSchema,
  type LiveEvent,
  type LiveTopic,
  type ServerMessage,
  topicKey,
  topicOfKey,
} from '../../domain/live-updates';
import type { EventStore, LogTailer, RecordedEvent } from '../../eventstore';

interface Subscription {
  topic: LiveTopic;
  lastSent: number;
  /** While the stream is being read, live events wait here so none overtakes the replay. */
  replaying: boolean;
  buffer: RecordedEvent[];
  /** Tokens of a run whose start event has not reached this socket yet: they wait for it. */
  heldDeltas: { after: number; message: ServerMessage & { type: 'delta' } }[];
}

interface Connection {
  socket: WebSocket;
  userId: string;
  /** By stream id. */
  subscriptions: Map<string, Subscription>;
}

/**
 * Pushes the events of executions and master mode sessions to subscribed sockets: a replay from the
 * client's position, 'up-to-date', then live events from the process's one log tailer (which also sees
 * other processes' commits). Positions are stream positions; each socket gets every position once, in order.
 */
export class LiveUpdateHub {
  private tailer: LogTailer | undefined;
  /** Sockets by the stream id they watch. */
  private readonly subscribers = new Map<string, Set<Connection>>();
  private readonly connections = new Set<Connection>();
  /** The text so far of each run this process is making, by stream, for sockets that subscribe mid-run. */
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
      for (const streamId of connection.subscriptions.keys()) this.unsubscribe(connection, streamId);
    });
  }

  /**
   * Model tokens of a running run of the stream `streamId`, to this process's subscribers; not stored.
   * `after` is the stream position of the run's start event: no socket sees a token before that event.
   */
  publishDelta(streamId: string, runId: string, text: string, after: number) {
    const topic = topicOfKey(streamId);
    if (!topic) return;
    const runs = this.runTexts.get(streamId) ?? new Map<string, { after: number; text: string }>();
    const sofar = runs.get(runId);
    runs.set(runId, { after, text: (sofar?.text ?? '') + text });
    this.runTexts.set(streamId, runs);
    const message = { type: 'delta', ...topic, runId, text } as const;
    for (const connection of this.subscribers.get(streamId) ?? []) {
      const subscription = connection.subscriptions.get(streamId);
      if (!subscription) continue;
      if (subscription.lastSent >= after && subscription.heldDeltas.length === 0)
        this.send(connection, message);
      else subscription.heldDeltas.push({ after, message });
    }
  }

  /** The run has ended: its text is in its event now. */
  forgetRun(streamId: string, runId: string) {
    const runs = this.runTexts.get(streamId);
    runs?.delete(runId);
    if (runs?.size === 0) this.runTexts.delete(streamId);
  }

  /**
   * After 'up-to-date' the client starts its token texts afresh: each run in progress gets its whole text
   * so far as one delta, and the tokens held for it are in that text already.
   */
  private sendRunTexts(connection: Connection, streamId: string, subscription: Subscription) {
    for (const [runId, { after, text }] of this.runTexts.get(streamId) ?? []) {
      if (after > subscription.lastSent) continue;
      subscription.heldDeltas = subscription.heldDeltas.filter((held) => held.message.runId !== runId);
      this.send(connection, { type: 'delta', ...subscription.topic, runId, text });
    }
  }

  private async receive(connection: Connection, raw: string) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return this.send(connection, { type: 'error', message: 'Messages must be JSON' });
    }
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success) return this.send(connection, { type: 'error', message: 'Unknown message' });
    const message = parsed.data;
    const topic: LiveTopic =
      'executionId' in message
        ? { executionId: message.executionId }
        : { masterSessionId: message.masterSessionId };
    const streamId = topicKey(topic);
    if (message.type === 'unsubscribe') return this.unsubscribe(connection, streamId);
    if (!(await this.owns(connection.userId, topic))) {
      const what = 'executionId' in topic ? 'Execution' : 'Master mode session';
      return this.send(connection, { type: 'error', ...topic, message: `${what} not found` });
    }
    const subscription: Subscription = {
      topic,
      lastSent: message.after ?? 0,
      replaying: true,
      buffer: [],
      heldDeltas: [],
    };
    connection.subscriptions.set(streamId, subscription);
    const watchers = this.subscribers.get(streamId) ?? new Set<Connection>();
    watchers.add(connection);
    this.subscribers.set(streamId, watchers);
    await this.catchUp(connection, streamId, subscription);
    this.send(connection, { type: 'up-to-date', ...topic, position: subscription.lastSent });
    this.sendRunTexts(connection, streamId, subscription);
  }

  /** Only the owner may watch a stream. */
  private async owns(userId: string, topic: LiveTopic): Promise<boolean> {
    const [owner] =
      'executionId' in topic
        ? await this.sql<{ userId: string }[]>`SELECT user_id FROM executions WHERE id = ${topic.executionId}`
        : await this.sql<{ userId: string }[]>`
            SELECT user_id FROM master_mode_sessions WHERE id = ${topic.masterSessionId}`;
    return owner?.userId === userId;
  }

  private unsubscribe(connection: Connection, streamId: string) {
    connection.subscriptions.delete(streamId);
    const watchers = this.subscribers.get(streamId);
    watchers?.delete(connection);
    if (watchers?.size === 0) this.subscribers.delete(streamId);
  }

  private async catchUp(connection: Connection, streamId: string, subscription: Subscription) {
    subscription.replaying = true;
    const { events } = await this.store.readStream(streamId, { after: subscription.lastSent });
    for (const event of events) this.sendEvent(connection, subscription, event);
    const waiting = subscription.buffer;
    subscription.buffer = [];
    subscription.replaying = false;
    for (const event of waiting) this.deliver(connection, streamId, subscription, event);
  }

  /** Called for every execution event the tailer sees, whoever appended it. */
  onExecutionEvent(listener: (executionId: string) => void) {
    this.executionEventListeners.push(listener);
  }

  private dispatch(events: RecordedEvent[]) {
    for (const event of events) {
      if (event.streamId.startsWith(EXECUTION_STREAM_PREFIX)) {
        const executionId = event.streamId.slice(EXECUTION_STREAM_PREFIX.length);
        for (const listener of this.executionEventListeners) listener(executionId);
      }
      for (const connection of this.subscribers.get(event.streamId) ?? []) {
        const subscription = connection.subscriptions.get(event.streamId);
        if (subscription) this.deliver(connection, event.streamId, subscription, event);
      }
    }
  }

  private deliver(
    connection: Connection,
    streamId: string,
    subscription: Subscription,
    event: RecordedEvent,
  ) {
    if (subscription.replaying) {
      subscription.buffer.push(event);
    } else if (event.streamPosition === subscription.lastSent + 1) {
      this.sendEvent(connection, subscription, event);
    } else if (event.streamPosition > subscription.lastSent + 1) {
      // Something in between has not reached this socket: read it from the stream first.
      subscription.buffer.push(event);
      void this.catchUp(connection, streamId, subscription).catch(() => {});
    }
  }

  private sendEvent(connection: Connection, subscription: Subscription, event: RecordedEvent) {
    if (event.streamPosition <= subscription.lastSent) return;
    subscription.lastSent = event.streamPosition;
    this.send(connection, {
      type: 'event',
      ...subscription.topic,
      position: event.streamPosition,
      event: { type: event.type, data: event.data } as LiveEvent,
    });
    while (subscription.heldDeltas[0] && subscription.heldDeltas[0].after <= subscription.lastSent) {
      this.send(connection, subscription.heldDeltas.shift()!.message);
    }
  }

  private send(connection: Connection, message: ServerMessage) {
    if (connection.socket.readyState === connection.socket.OPEN)
      connection.socket.send(JSON.stringify(message));
  }
}
