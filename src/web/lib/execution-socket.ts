import { BehaviorSubject, EMPTY, repeat, retry, Subject, type Subscription, timer } from 'rxjs';
import { type WebSocketSubject, webSocket } from 'rxjs/webSocket';
import {
  type ClientMessage,
  type LiveTopic,
  REMOVED_FROM_WORKSPACE_CLOSE_CODE,
  RESTART_CLOSE_CODE,
  type ServerMessage,
  SIGNED_OUT_CLOSE_CODE,
  topicKey,
  topicOf,
  topicOfKey,
} from '../../domain/live-updates';
import { sessionEnded } from './session-ended';

export type { ServerMessage };

export interface ExecutionWatcher {
  /** The stream position already applied; replay starts after it (a flow: none yet, so from now). */
  after(): number | undefined;
  onMessage(message: ServerMessage): void;
}

/**
 * Waits 0.5 s, 1 s, 2 s ... up to 15 s, with jitter so many tabs do not reconnect in step. A server process
 * that is restarting says so: its sockets reconnect (to another process) within a quarter second.
 */
export function reconnectDelay(attempt: number, serverRestarting = false): number {
  if (serverRestarting && attempt <= 1) return Math.random() * 250;
  const base = Math.min(15_000, 500 * 2 ** Math.max(0, attempt - 1));
  return base * (0.75 + Math.random() * 0.5);
}

/** ws: or wss: to match the page, same origin: the session cookie authenticates the upgrade. */
export function liveUpdatesUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/ws`;
}

/**
 * One websocket per tab, shared by every screen that watches an execution, a master mode session or a flow
 * (the protocol is src/domain/live-updates.ts). It reconnects with backoff
 * and, on each (re)connection, subscribes again from each watcher's last applied position, so nothing
 * pushed while it was away is lost.
 */
export class ExecutionSocket {
  private readonly watchers = new Map<string, Set<ExecutionWatcher>>();
  /** Screens that watch no stream but want the messages naming none ('reviews-changed'). */
  private readonly listeners = new Set<(message: ServerMessage) => void>();
  private subject: WebSocketSubject<ServerMessage | ClientMessage> | null = null;
  private connection: Subscription | null = null;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Whether a socket is open now; screens show live vs polling from it. */
  readonly connected$ = new BehaviorSubject(false);
  /**
   * The server closed the socket because its sign-in session ended (signed out, here or in another tab, or
   * expired): it is not opened again, and the app learns the user is signed out.
   */
  readonly signedOut$ = new BehaviorSubject(false);
  /**
   * The server closed the socket because the user was removed from a workspace whose records it watched
   * (the close names no workspace: screens check their own against the user's workspaces). It opens again.
   */
  readonly removedFromWorkspace$ = new Subject<void>();

  constructor(
    private readonly url: () => string,
    /** Another WebSocket implementation (tests in Node); the browser's by default. */
    private readonly WebSocketCtor?: { new (url: string): WebSocket },
  ) {}

  /** Starts receiving a stream's events; the returned function stops. */
  watch(topic: LiveTopic, watcher: ExecutionWatcher): () => void {
    const key = topicKey(topic);
    const set = this.watchers.get(key) ?? new Set();
    const first = set.size === 0;
    set.add(watcher);
    this.watchers.set(key, set);
    this.connect();
    if (first) this.subscribe(topic, watcher.after());
    return () => {
      set.delete(watcher);
      if (set.size > 0) return;
      this.watchers.delete(key);
      this.send({ type: 'unsubscribe', ...topic });
      if (!this.inUse()) this.scheduleClose();
    };
  }

  /**
   * Keeps the socket open for the messages that name no stream (a review requested or decided); the
   * returned function stops.
   */
  listen(listener: (message: ServerMessage) => void): () => void {
    this.listeners.add(listener);
    this.connect();
    return () => {
      this.listeners.delete(listener);
      if (!this.inUse()) this.scheduleClose();
    };
  }

  private inUse() {
    return this.watchers.size > 0 || this.listeners.size > 0;
  }

  /** Whether the stream's events are on their way to a watcher now: it is watched and the socket is open. */
  delivering(topic: LiveTopic): boolean {
    return this.connected$.value && this.watchers.has(topicKey(topic));
  }

  /** Reads the stream again from a position: after a gap in the pushed positions. */
  resubscribe(topic: LiveTopic, after: number) {
    if (this.watchers.has(topicKey(topic))) this.subscribe(topic, after);
  }

  private subscribe(topic: LiveTopic, after: number | undefined) {
    this.send({ type: 'subscribe', ...topic, ...(after === undefined ? {} : { after }) } as ClientMessage);
  }

  /** Sends only on an open socket; a closed one resubscribes everything when it opens again. */
  private send(message: ClientMessage) {
    if (this.connected$.value) this.subject?.next(message);
  }

  private connect() {
    clearTimeout(this.closeTimer);
    if (this.connection) return;
    /** The last close was a server process restarting. */
    let restarting = false;
    const subject = webSocket<ServerMessage | ClientMessage>({
      url: this.url(),
      ...(this.WebSocketCtor ? { WebSocketCtor: this.WebSocketCtor } : {}),
      openObserver: {
        next: () => {
          this.connected$.next(true);
          for (const [key, set] of this.watchers) {
            const [watcher] = set;
            const topic = topicOfKey(key);
            if (watcher && topic) this.subscribe(topic, watcher.after());
          }
        },
      },
      closeObserver: {
        next: (event: CloseEvent) => {
          this.connected$.next(false);
          restarting = event.code === RESTART_CLOSE_CODE;
          if (event.code === SIGNED_OUT_CLOSE_CODE) {
            this.signedOut$.next(true);
            sessionEnded();
          }
          if (event.code === REMOVED_FROM_WORKSPACE_CLOSE_CODE) this.removedFromWorkspace$.next();
        },
      },
    });
    this.subject = subject;
    let attempt = 0;
    // Once signed out, a new try would only be refused: the connection ends instead.
    const again = () => (this.signedOut$.value ? EMPTY : timer(reconnectDelay(++attempt, restarting)));
    this.connection = subject
      .pipe(
        // An error (network, refused upgrade) and a clean close by the server both lead to a new try.
        retry({ delay: again, resetOnSuccess: true }),
        repeat({ delay: again }),
      )
      .subscribe((message) => {
        attempt = 0;
        this.route(message as ServerMessage);
      });
  }

  private route(message: ServerMessage) {
    const topic = message.type === 'reviews-changed' ? null : topicOf(message);
    const targets = topic === null ? [...this.watchers.values()] : [this.watchers.get(topicKey(topic))];
    for (const set of targets) for (const watcher of set ?? []) watcher.onMessage(message);
    if (topic === null) for (const listener of this.listeners) listener(message);
  }

  /** Screens unmount and mount while navigating; keep the socket briefly so that costs no reconnect. */
  private scheduleClose() {
    clearTimeout(this.closeTimer);
    this.closeTimer = setTimeout(() => {
      if (this.inUse()) return;
      this.connection?.unsubscribe();
      this.connection = null;
      this.subject = null;
      this.connected$.next(false);
    }, 5_000);
  }
}

let shared: ExecutionSocket | null = null;

/** The tab's one socket, created on first use so pages that never watch an execution never open it. */
export function executionSocket(): ExecutionSocket {
  shared ??= new ExecutionSocket(() => liveUpdatesUrl(window.location));
  return shared;
}
