import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExecutionSocket, liveUpdatesUrl, reconnectDelay, type ServerMessage } from './execution-socket';

/** A stand-in for the browser WebSocket that the test opens, feeds and closes by hand. */
class FakeWebSocket {
  static instances: FakeWebSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  binaryType = 'blob';
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: ServerMessage) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({ wasClean: false, code: 1006, reason: '' });
  }
  closeByServer(code: number) {
    this.readyState = 3;
    this.onclose?.({ wasClean: true, code, reason: '' });
  }
}

const latest = () => FakeWebSocket.instances[FakeWebSocket.instances.length - 1]!;

describe('ExecutionSocket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeWebSocket.instances = [];
  });
  afterEach(() => vi.useRealTimers());

  it('subscribes after the watcher position once open, and routes messages by execution', () => {
    const socket = new ExecutionSocket(() => 'ws://test/api/ws', FakeWebSocket as never);
    const received: ServerMessage[] = [];
    socket.watch({ executionId: 'e1' }, { after: () => 7, onMessage: (m) => received.push(m) });
    latest().open();
    expect(latest().sent).toEqual([{ type: 'subscribe', executionId: 'e1', after: 7 }]);
    latest().receive({ type: 'delta', executionId: 'e1', runId: 'r1', text: 'Hel' });
    latest().receive({ type: 'delta', executionId: 'other', runId: 'r2', text: 'x' });
    expect(received).toEqual([{ type: 'delta', executionId: 'e1', runId: 'r1', text: 'Hel' }]);
  });

  it('reconnects after a drop and resubscribes from the position applied by then', () => {
    const socket = new ExecutionSocket(() => 'ws://test/api/ws', FakeWebSocket as never);
    let position = 3;
    socket.watch({ executionId: 'e1' }, { after: () => position, onMessage: () => {} });
    latest().open();
    expect(socket.connected$.value).toBe(true);
    position = 9;
    latest().drop();
    expect(socket.connected$.value).toBe(false);
    vi.advanceTimersByTime(20_000);
    expect(FakeWebSocket.instances.length).toBe(2);
    latest().open();
    expect(latest().sent).toEqual([{ type: 'subscribe', executionId: 'e1', after: 9 }]);
  });

  it('stays closed once the server says the session ended (4401), and tells the app', () => {
    const socket = new ExecutionSocket(() => 'ws://test/api/ws', FakeWebSocket as never);
    socket.watch({ executionId: 'e1' }, { after: () => 0, onMessage: () => {} });
    latest().open();
    latest().closeByServer(4401);
    expect(socket.signedOut$.value).toBe(true);
    expect(socket.connected$.value).toBe(false);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances.length).toBe(1);
  });

  it('tells the screens when the server closes it for a removal from a workspace (4403), and opens again', () => {
    const socket = new ExecutionSocket(() => 'ws://test/api/ws', FakeWebSocket as never);
    const removals: unknown[] = [];
    socket.removedFromWorkspace$.subscribe((removal) => removals.push(removal));
    socket.watch({ executionId: 'e1' }, { after: () => 0, onMessage: () => {} });
    latest().open();
    latest().closeByServer(1001);
    expect(removals).toHaveLength(0);
    vi.advanceTimersByTime(20_000);
    latest().open();
    latest().closeByServer(4403);
    expect(removals).toHaveLength(1);
    expect(socket.signedOut$.value).toBe(false);
    vi.advanceTimersByTime(20_000);
    expect(FakeWebSocket.instances.length).toBe(3);
  });

  it('opens again after any other close by the server', () => {
    const socket = new ExecutionSocket(() => 'ws://test/api/ws', FakeWebSocket as never);
    socket.watch({ executionId: 'e1' }, { after: () => 0, onMessage: () => {} });
    latest().open();
    latest().closeByServer(1001);
    expect(socket.signedOut$.value).toBe(false);
    vi.advanceTimersByTime(20_000);
    expect(FakeWebSocket.instances.length).toBe(2);
  });

  it('unsubscribes when the last watcher of an execution leaves', () => {
    const socket = new ExecutionSocket(() => 'ws://test/api/ws', FakeWebSocket as never);
    const stopA = socket.watch({ executionId: 'e1' }, { after: () => 0, onMessage: () => {} });
    const stopB = socket.watch({ executionId: 'e1' }, { after: () => 0, onMessage: () => {} });
    latest().open();
    stopA();
    expect(latest().sent).toHaveLength(1);
    stopB();
    expect(latest().sent).toEqual([
      { type: 'subscribe', executionId: 'e1', after: 0 },
      { type: 'unsubscribe', executionId: 'e1' },
    ]);
  });
});

describe('connection details', () => {
  it('uses wss: on https pages and ws: otherwise, on the same host', () => {
    expect(liveUpdatesUrl({ protocol: 'https:', host: 'app.example:8443' })).toBe(
      'wss://app.example:8443/api/ws',
    );
    expect(liveUpdatesUrl({ protocol: 'http:', host: '127.0.0.1:5000' })).toBe('ws://127.0.0.1:5000/api/ws');
  });

  it('backs off exponentially up to a ceiling', () => {
    expect(reconnectDelay(1)).toBeLessThanOrEqual(625);
    expect(reconnectDelay(3)).toBeGreaterThanOrEqual(1500);
    expect(reconnectDelay(30)).toBeLessThanOrEqual(18_750);
    // A server process that is restarting: another one is there at once.
    expect(reconnectDelay(1, true)).toBeLessThan(250);
    expect(reconnectDelay(2, true)).toBeGreaterThanOrEqual(750);
  });
});
