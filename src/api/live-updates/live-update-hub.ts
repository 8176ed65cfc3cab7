import type { Sql } from 'postgres';
import type { WebSocket } from 'ws';
import { EXECUTION_MESSAGES } from '../../domain/execution';
import { EXECUTION_STREAM_PREFIX } from '../../domain/execution/stream';
import { EXPERIMENT_MESSAGES } from '../../domain/experiment/decider';
import { FLOW_NOT_FOUND } from '../../domain/flow/decider';
import {
  clientMessageSchema,
  LIVE_UPDATE_ERRORS,
  type LiveEvent,
  type LiveTopic,
  REMOVED_FROM_WORKSPACE_CLOSE_CODE,
  RESTART_CLOSE_CODE,
  type ServerMessage,
  SIGNED_OUT_CLOSE_CODE,
  topicKey,
  topicOf,
  topicOfKey,
} from '../../domain/live-updates';
import { SESSION_NOT_FOUND as MASTER_SESSION_NOT_FOUND } from '../../domain/master-mode/decider';
import { WORKSPACE_STREAM_PREFIX } from '../../domain/workspace/events';
import type { EventStore, RecordedEvent } from '../../eventstore';
import { holderOf, may, type Reach, type Role, roleInSql, withinReach } from '../access';
import type { SessionWatch } from '../auth/session-store';
import type { Source } from '../commands/followers';
import type { ServerInstance } from '../runtime/server-instance';
import { webSocketMessageSent } from '../telemetry/metrics';
import { type RunTextItem, RunTextRelay } from './run-text-relay';

/**
 * How often the sessions of open sockets are read again: it learns renewed expiries and catches a sign-out
 * whose notification was lost. Sign-out closes sockets at once; this only bounds the exceptions.
 */
const SESSION_CHECK_MS = 60_000;

/** The events that end a run: its text so far is in them, or it never will be. */
const RUN_ENDED_EVENTS = new Set([
  'StepRunSucceeded',
  'StepRunFailed',
  'MasterRowRunSucceeded',
  'MasterRowRunFailed',
]);

/** The events that add a review to inboxes or take one out of them. */
const REVIEW_EVENTS = new Set([
  'ReviewRequested',
  'ReviewApproved',
  'ReviewRejected',
  'ReviewDue',
  'ReviewHandedBack',
  'ReviewSentToOwners',
  'ReviewWithdrawn',
]);

/**
 * Where an event came from: the log (the process's tailer: every commit of every process, in log order), or
 * this process's own commit, handed over at once by the event store.
 */

interface Subscription {
  topic: LiveTopic;
  /** The workspace the watched record is in (null: its owner's own): a member removed from it stops at once. */
  workspaceId: string | null;
  lastSent: number;
  /** While the stream is being read, live events wait here so none overtakes the replay. */
  replaying: boolean;
  buffer: { event: RecordedEvent; from: Source }[];
  /** Tokens of a run whose start event has not reached this socket yet: they wait for it. */
  heldDeltas: { after: number; message: ServerMessage & { type: 'delta' } }[];
}

interface Connection {
  socket: WebSocket;
  userId: string;
  /**
   * The sign-in session the socket was opened with, or its API token (`token:<id>`): it lives as long as that
   * session or token.
   */
  sessionId: string;
  /** A workspace token's workspace: the socket watches only that workspace's records. */
  reach: Reach | null;
  /** When that session expires (ms since epoch), as last read from the store; nothing is pushed after it. */
  expiresAt: number;
  /** By stream id. */
  subscriptions: Map<string, Subscription>;
}

/**
 * Pushes the events of executions and master mode sessions to subscribed sockets: a replay from the
 * client's position, 'up-to-date', then live events. This process's commits reach its sockets at once, as the
 * event store hands them over; the process's event feed (the log tailer) brings every commit, other
 * processes' too, and fills whatever the first way left out. Positions are stream positions; each socket gets
 * every position once, in order: an event goes out only as the position after the socket's last one.
 * A socket lives only as long as its sign-in session: when the session ends (sign-out in any process) or
 * expires, the socket is closed with SIGNED_OUT_CLOSE_CODE and gets nothing more. The tokens of a run reach
 * the sockets of every process: this one's at once, the others' through the run text relay.
 */
export class LiveUpdateHub {
  private closed = false;
  private relay: RunTextRelay | undefined;
  private stopWatchingSessions: (() => Promise<void>) | undefined;
  private sessionCheck: NodeJS.Timeout | undefined;
  /** Sockets by the stream id they watch. */
  private readonly subscribers = new Map<string, Set<Connection>>();
  private readonly connections = new Set<Connection>();
  /** Sockets by the id of the sign-in session they were opened with. */
  private readonly bySession = new Map<string, Set<Connection>>();
  /** The text so far of each run this process is making, by stream, for sockets that subscribe mid-run. */
  private readonly runTexts = new Map<string, Map<string, { after: number; text: string }>>();
  /** Each event's message as sent, while the event is still held somewhere (a dispatch, a replay). */
  private readonly eventMessages = new WeakMap<RecordedEvent, Buffer>();

  constructor(
    private readonly store: EventStore,
    private readonly sql: Sql,
    private readonly sessions: SessionWatch,
    private readonly instance: Pick<ServerInstance, 'alone'>,
  ) {}

  async start() {
    this.relay = new RunTextRelay(
      this.sql,
      () => !this.instance.alone,
      (item) => this.relayed(item),
    );
    try {
      await this.relay.start();
      this.stopWatchingSessions = await this.sessions.watchEndings(
        (sessionId) => this.endSession(sessionId),
        () => void this.checkSessions().catch(() => {}),
      );
    } catch (error) {
      await this.relay.stop();
      throw error;
    }
    // A failed check is retried at the next one; meanwhile nothing is pushed past a known expiry.
    this.sessionCheck = setInterval(() => void this.checkSessions().catch(() => {}), SESSION_CHECK_MS);
    this.sessionCheck.unref();
  }

  async close() {
    clearInterval(this.sessionCheck);
    // Shutting down, a connection already lost has nothing left to unlisten: that must not stop the close.
    this.closed = true;
    await Promise.allSettled([this.relay?.stop(), this.stopWatchingSessions?.()]);
    for (const connection of this.connections) connection.socket.close(1001, 'Server shutting down');
    this.connections.clear();
    this.subscribers.clear();
    this.bySession.clear();
  }

  /** This process is stopping: every socket is closed with the restart code, so its client reconnects at once. */
  restarting() {
    for (const connection of [...this.connections]) {
      this.forget(connection);
      connection.socket.close(RESTART_CLOSE_CODE, 'Server restarting');
    }
  }

  get connectionCount() {
    return this.connections.size;
  }

  /** A socket just upgraded with a valid session; its expiry is read at once, and again on each check. */
  connect(socket: WebSocket, signedIn: { userId: string; sessionId: string; reach: Reach | null }) {
    const connection: Connection = {
      socket,
      ...signedIn,
      expiresAt: Number.POSITIVE_INFINITY,
      subscriptions: new Map(),
    };
    this.connections.add(connection);
    const sharing = this.bySession.get(signedIn.sessionId) ?? new Set<Connection>();
    sharing.add(connection);
    this.bySession.set(signedIn.sessionId, sharing);
    socket.on('message', (raw) => {
      void this.receive(connection, String(raw)).catch(() =>
        this.send(connection, { type: 'error', message: LIVE_UPDATE_ERRORS.failed }),
      );
    });
    socket.on('close', () => this.forget(connection));
    void this.checkSessions([signedIn.sessionId]).catch(() => {});
  }

  /** The session ended: its sockets are closed and left out of every push from now on. */
  endSession(sessionId: string) {
    for (const connection of this.bySession.get(sessionId) ?? []) this.signOut(connection);
  }

  /**
   * Reads the sessions of open sockets (all, or the ones named) from the store: a session gone or expired
   * closes its sockets, the others learn their current expiry (renewal moves it forward).
   */
  async checkSessions(sessionIds = [...this.bySession.keys()]): Promise<void> {
    const expiries = await this.sessions.expiries(sessionIds);
    for (const sessionId of sessionIds) {
      const expiresAt = expiries.get(sessionId);
      if (expiresAt === undefined) this.endSession(sessionId);
      else for (const connection of this.bySession.get(sessionId) ?? []) connection.expiresAt = expiresAt;
    }
  }

  private signOut(connection: Connection) {
    this.forget(connection);
    const { socket } = connection;
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
      socket.close(SIGNED_OUT_CLOSE_CODE, 'Signed out');
  }

  /** Closed or signed out: the socket is in no list any more. Safe to call twice. */
  private forget(connection: Connection) {
    this.connections.delete(connection);
    for (const streamId of [...connection.subscriptions.keys()]) this.unsubscribe(connection, streamId);
    const sharing = this.bySession.get(connection.sessionId);
    sharing?.delete(connection);
    if (sharing?.size === 0) this.bySession.delete(connection.sessionId);
  }

  /**
   * Model tokens of a running run of the stream `streamId`, to this process's subscribers; not stored.
   * `after` is the stream position of the run's start event: no socket sees a token before that event.
   */
  publishDelta(streamId: string, runId: string, text: string, after: number) {
    this.deliverDelta(streamId, runId, text, after);
    this.relay?.send({ streamId, runId, after, text });
  }

  /** The run has ended: its text is in its event now. */
  forgetRun(streamId: string, runId: string) {
    this.dropRunText(streamId, runId);
    this.relay?.send({ streamId, runId, ended: true });
  }

  /** Tokens and ends of runs another process is making. */
  private relayed(item: RunTextItem) {
    if ('text' in item) this.deliverDelta(item.streamId, item.runId, item.text, item.after);
    else this.dropRunText(item.streamId, item.runId);
  }

  private deliverDelta(streamId: string, runId: string, text: string, after: number) {
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

  private dropRunText(streamId: string, runId: string) {
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
      return this.send(connection, { type: 'error', message: LIVE_UPDATE_ERRORS.notJson });
    }
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success)
      return this.send(connection, { type: 'error', message: LIVE_UPDATE_ERRORS.unknownMessage });
    const message = parsed.data;
    const topic = topicOf(message)!;
    const streamId = topicKey(topic);
    if (message.type === 'unsubscribe') return this.unsubscribe(connection, streamId);
    const watchable = await withinReach(connection.reach, () => this.mayWatch(connection.userId, topic));
    // Signed out while ownership was read: it must not come back into the lists.
    if (!this.connections.has(connection)) return;
    if (!watchable) {
      const message =
        'executionId' in topic
          ? EXECUTION_MESSAGES.executionNotFound
          : 'masterSessionId' in topic
            ? MASTER_SESSION_NOT_FOUND
            : 'experimentId' in topic
              ? EXPERIMENT_MESSAGES.notFound
              : FLOW_NOT_FOUND;
      return this.send(connection, { type: 'error', ...topic, message });
    }
    // A flow is watched from now unless a position is given: its past is its versions, not news.
    const after = 'after' in message ? message.after : undefined;
    const subscription: Subscription = {
      topic,
      workspaceId: watchable.workspaceId,
      lastSent: after ?? (await this.store.streamVersion(streamId)),
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

  /**
   * Who may watch a stream is the access rule's to say: the workspace the record is in when they may
   * (null: its owner's own), undefined when they may not.
   */
  private async mayWatch(
    userId: string,
    topic: LiveTopic,
  ): Promise<{ workspaceId: string | null } | undefined> {
    const { sql } = this;
    type Held = { userId: string; workspaceId: string | null; role: Role | null };
    const [held] =
      'executionId' in topic
        ? await sql<Held[]>`
            SELECT e.user_id, e.workspace_id, ${roleInSql(sql, userId, 'e.workspace_id')}
            FROM executions e WHERE e.id = ${topic.executionId}`
        : 'masterSessionId' in topic
          ? await sql<Held[]>`
              SELECT user_id, NULL::uuid AS workspace_id, NULL AS role
              FROM master_mode_sessions WHERE id = ${topic.masterSessionId}`
          : 'experimentId' in topic
            ? // An experiment is watched by who may watch its flow (where the flow is now).
              await sql<Held[]>`
                SELECT f.user_id, f.workspace_id, ${roleInSql(sql, userId, 'f.workspace_id')}
                FROM experiments x JOIN flows f ON f.id = x.flow_id WHERE x.id = ${topic.experimentId}`
            : await sql<Held[]>`
                SELECT f.user_id, f.workspace_id, ${roleInSql(sql, userId, 'f.workspace_id')}
                FROM flows f WHERE f.id = ${topic.flowId}`;
    const kind =
      'executionId' in topic ? 'execution' : 'masterSessionId' in topic ? 'master-session' : 'flow';
    const holder = held && holderOf(held.userId, held);
    return may(userId, 'watch', kind, holder) ? { workspaceId: held!.workspaceId } : undefined;
  }

  /**
   * A member removed from a workspace (by this process or another: the log tells every one) watches none
   * of its records from now: each socket of theirs that watched one is closed, and on opening again finds
   * them missing.
   */
  private removedFromWorkspace(event: RecordedEvent) {
    const workspaceId = event.streamId.slice(WORKSPACE_STREAM_PREFIX.length);
    const { userId } = event.data as { userId: string };
    for (const connection of [...this.connections]) {
      if (connection.userId !== userId) continue;
      const watched = [...connection.subscriptions.values()].some((s) => s.workspaceId === workspaceId);
      if (!watched) continue;
      this.forget(connection);
      const { socket } = connection;
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
        socket.close(REMOVED_FROM_WORKSPACE_CLOSE_CODE, 'Removed from the workspace');
    }
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
    for (const { event, from } of waiting) this.deliver(connection, streamId, subscription, event, from);
  }

  /**
   * Events from the log, or this process's own just committed (which the log brings again later). Each
   * socket's position rule is `deliver`'s; what else an event sets off (a removed member's sockets closed, a
   * flow's watchers told of a start, inboxes of a review) happens once, at its first sight. A removal is acted
   * on before the event goes anywhere, so that nothing committed after it reaches the removed member first.
   */
  /**
   * Events of any process, as this process hears of them (its own commit, then the log: each copy), pushed to
   * the sockets watching their streams; each socket takes an event only as its next position.
   */
  push(events: RecordedEvent[], from: Source) {
    if (this.closed) return;
    for (const event of events) {
      // Also ends the text of a run whose process died before it could say so.
      if (RUN_ENDED_EVENTS.has(event.type))
        this.dropRunText(event.streamId, (event.data as { runId: string }).runId);
      for (const connection of this.subscribers.get(event.streamId) ?? []) {
        const subscription = connection.subscriptions.get(event.streamId);
        if (subscription) this.deliver(connection, event.streamId, subscription, event, from);
      }
    }
  }

  /**
   * What events set off beyond their push, once each (at the first copy heard): a member removed from a
   * workspace loses its sockets there, a flow's watchers learn that an execution of it started, and the people
   * who may have a review in their inbox are told to read it again.
   */
  actOn(events: RecordedEvent[]) {
    if (this.closed) return;
    for (const event of events) {
      if (event.type === 'MemberRemoved' && event.streamId.startsWith(WORKSPACE_STREAM_PREFIX))
        this.removedFromWorkspace(event);
      if (event.type === 'ExecutionStarted') this.tellFlowOfStart(event);
      if (REVIEW_EVENTS.has(event.type) && event.streamId.startsWith(EXECUTION_STREAM_PREFIX))
        void this.tellOfReviews(event.streamId.slice(EXECUTION_STREAM_PREFIX.length)).catch(() => {});
    }
  }

  /**
   * The watchers of a flow learn that an execution of it started (by a run, "Chạy lại từ đây", ...): an open
   * tab moves to it. An experiment's runs are not news of the flow: its tabs stay where they are.
   */
  private tellFlowOfStart(event: RecordedEvent) {
    const { flowId, executionId, experimentId } = event.data as {
      flowId: string;
      executionId: string;
      experimentId?: string;
    };
    if (experimentId !== undefined) return;
    const watchers = this.subscribers.get(topicKey({ flowId }));
    if (!watchers) return;
    const message = JSON.stringify({
      type: 'execution-started',
      flowId,
      executionId,
    } satisfies ServerMessage);
    for (const connection of watchers) this.sendText(connection, message);
  }

  /**
   * A review of the execution was requested or decided: each open socket of the people who may have it in
   * their inbox (the execution's owner and its workspace's members) is told to read the inbox again. The
   * message names nothing; the inbox answers each of them only what their own access allows.
   */
  private async tellOfReviews(executionId: string) {
    if (this.connections.size === 0) return;
    const { sql } = this;
    const rows = await sql<{ userId: string }[]>`
      SELECT e.user_id FROM executions e WHERE e.id = ${executionId}
      UNION
      SELECT m.user_id FROM workspace_members m JOIN executions e ON e.workspace_id = m.workspace_id
      WHERE e.id = ${executionId}`;
    const concerned = new Set(rows.map((row) => row.userId));
    const message = JSON.stringify({ type: 'reviews-changed' } satisfies ServerMessage);
    for (const connection of this.connections)
      if (concerned.has(connection.userId)) this.sendText(connection, message);
  }

  /**
   * The one rule for a live event: sent when it is the position after the socket's last, dropped when the
   * socket has it already. Past a gap, an event from the log has the stream read first; one of this process's
   * commits is left for the log to bring again (the gap is usually a commit of a moment before, told later).
   */
  private deliver(
    connection: Connection,
    streamId: string,
    subscription: Subscription,
    event: RecordedEvent,
    from: Source,
  ) {
    if (subscription.replaying) {
      subscription.buffer.push({ event, from });
    } else if (event.streamPosition === subscription.lastSent + 1) {
      this.sendEvent(connection, subscription, event);
    } else if (event.streamPosition > subscription.lastSent + 1 && from === 'log') {
      // Something in between has not reached this socket: read it from the stream first.
      subscription.buffer.push({ event, from });
      void this.catchUp(connection, streamId, subscription).catch(() => {});
    }
  }

  private sendEvent(connection: Connection, subscription: Subscription, event: RecordedEvent) {
    if (event.streamPosition <= subscription.lastSent) return;
    subscription.lastSent = event.streamPosition;
    // The same for every socket of the stream (its topic is the stream's): serialised and encoded once.
    let message = this.eventMessages.get(event);
    if (message === undefined) {
      const sent: ServerMessage = {
        type: 'event',
        ...subscription.topic,
        position: event.streamPosition,
        event: { type: event.type, data: event.data } as LiveEvent,
      };
      message = Buffer.from(JSON.stringify(sent));
      this.eventMessages.set(event, message);
    }
    this.sendText(connection, message);
    while (subscription.heldDeltas[0] && subscription.heldDeltas[0].after <= subscription.lastSent) {
      this.send(connection, subscription.heldDeltas.shift()!.message);
    }
  }

  private send(connection: Connection, message: ServerMessage) {
    this.sendText(connection, JSON.stringify(message));
  }

  /** A text message: JSON, as a string or already encoded as UTF-8. */
  private sendText(connection: Connection, text: string | Buffer) {
    // The expiry is also checked here, so an idle socket's first push after it closes it instead.
    if (Date.now() >= connection.expiresAt) return this.signOut(connection);
    if (connection.socket.readyState !== connection.socket.OPEN) return;
    connection.socket.send(text, { binary: false });
    webSocketMessageSent();
  }
}
