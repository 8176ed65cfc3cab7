import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createOfflineProvider, type ModelProvider } from '../src/ai';
import { as, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';
import { join, type Person } from './support/workspace-people';

interface Pushed {
  type: string;
  position?: number;
  event?: { type: string; data: Record<string, unknown> };
  runId?: string;
  text?: string;
}

/** Holds a 'GATED' step's answer halfway until the test opens the gate; anything else is the offline model. */
let openGate: () => void = () => {};
const offline = createOfflineProvider({ chunkDelayMs: 5 });
const gatedOrOffline: ModelProvider = {
  kind: 'offline',
  model: offline.model,
  stream(request) {
    if (!request.prompt.includes('GATED')) return offline.stream(request);
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const chunks = async function* () {
      yield 'First words, ';
      yield 'then more, ';
      await gate;
      yield 'and the end.';
    };
    return Object.assign(chunks(), {
      final: gate.then(() => ({ text: 'First words, then more, and the end.', usage: null })),
    });
  },
};

describe('live updates in one process', () => {
  let t: TestApp;
  let cookie: string;
  let owner: Person;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        resolveModel: () => ({ provider: gatedOrOffline, keySource: 'offline' }),
      },
    );
    const signedUp = await signUp(t.app);
    cookie = signedUp.cookie;
    owner = { client: as(t.app, cookie), id: signedUp.user.id, email: signedUp.email };
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
  });
  afterAll(() => t.close());

  async function subscribe(executionId: string, after: number, who = cookie) {
    const socket = new WebSocket(`${base}/api/ws`, { headers: { cookie: who } });
    const messages: Pushed[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'subscribe', executionId, after }));
    await expect.poll(() => messages.some((m) => m.type === 'up-to-date')).toBe(true);
    return { socket, messages };
  }

  it('streams the model tokens while a step runs, then the stored result', async () => {
    const client = as(t.app, cookie);
    const {
      flow,
      steps: [step],
    } = await createFlow(client, 'Stream', [{ name: 'Write', systemPrompt: 'Write a poem about rain' }]);
    const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    const { socket, messages } = await subscribe(execution.id, execution.version);

    const { results } = (
      await client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`)
    ).json();
    await expect.poll(() => messages.some((m) => m.event?.type === 'StepRunSucceeded')).toBe(true);
    const deltas = messages.filter((m) => m.type === 'delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => d.text).join('')).toBe(results[0].result);
    const order = messages.map((m) => m.event?.type ?? m.type);
    expect(order.indexOf('StepRunStarted')).toBeLessThan(order.indexOf('delta'));
    expect(order.lastIndexOf('delta')).toBeLessThan(order.indexOf('StepRunSucceeded'));
    socket.close();
  });

  it('a socket that subscribes mid-run gets the text so far as one delta after up-to-date, then the rest', async () => {
    const client = as(t.app, cookie);
    const {
      flow,
      steps: [step],
    } = await createFlow(client, 'Late', [{ name: 'Write', systemPrompt: 'GATED: write about rain' }]);
    const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    const early = await subscribe(execution.id, execution.version);
    const running = client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`);
    await expect.poll(() => early.messages.filter((m) => m.type === 'delta').length).toBe(2);

    const late = await subscribe(execution.id, 0);
    await expect.poll(() => late.messages.filter((m) => m.type === 'delta').length).toBe(1);
    openGate();
    const { results } = (await running).json();
    await expect.poll(() => late.messages.some((m) => m.event?.type === 'StepRunSucceeded')).toBe(true);
    const order = late.messages.map((m) => m.type);
    const upToDate = order.indexOf('up-to-date');
    const firstDelta = order.indexOf('delta');
    expect(firstDelta).toBeGreaterThan(upToDate);
    // Deltas from up-to-date on make the whole answer, from its first word, once.
    const texts = late.messages.slice(upToDate).filter((m) => m.type === 'delta');
    expect(texts.map((d) => d.text).join('')).toBe(results[0].result);
    early.socket.close();
    late.socket.close();
  });

  /**
   * Keeps the log tailer from reading anything committed from now on: a transaction that has an id and stays
   * open holds the feed's horizon, as any slow write on the server does. Returns the way to let it go.
   */
  async function holdTheLog() {
    const held = await t.db.sql.reserve();
    await held`BEGIN`;
    await held`SELECT pg_current_xact_id()`;
    return async () => {
      await held`ROLLBACK`;
      held.release();
    };
  }

  /** The positions of `streamId` after `after` that the process's log tailer hands out from now on. */
  function tailed(streamId: string, after: number) {
    const positions: number[] = [];
    const stop = t.app.eventFeed.onEvents((events) => {
      for (const event of events)
        if (event.streamId === streamId && event.streamPosition > after) positions.push(event.streamPosition);
    });
    return { positions, stop };
  }

  /** Resolves once everything pushed to the socket before this call has arrived (its answer comes behind it). */
  async function drained(socket: WebSocket, messages: Pushed[]) {
    const before = messages.length;
    socket.send('not json');
    await expect.poll(() => messages.slice(before).some((m) => m.type === 'error')).toBe(true);
  }

  it("pushes this process's commits and the run's tokens at once, while the log tailer is held back", async () => {
    const client = as(t.app, cookie);
    const {
      flow,
      steps: [step],
    } = await createFlow(client, 'Held', [{ name: 'Write', systemPrompt: 'GATED: write about snow' }]);
    const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    const streamId = `execution-${execution.id}`;
    const { socket, messages } = await subscribe(execution.id, execution.version);
    const log = tailed(streamId, execution.version);
    const letGo = await holdTheLog();
    let running: ReturnType<typeof client.post> | undefined;
    try {
      running = client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`);
      // The run's start event and its first tokens, none of which the tailer has read.
      await expect.poll(() => messages.filter((m) => m.type === 'delta').length, { timeout: 10_000 }).toBe(2);
      expect(messages.some((m) => m.event?.type === 'StepRunStarted')).toBe(true);
      expect(log.positions).toEqual([]);
    } finally {
      await letGo();
      openGate();
    }
    const { results } = (await running).json();
    const version = (await client.get(`/api/executions/${execution.id}`)).json().version;
    // The tailer reads the same positions later: each still reaches the socket once, in order.
    await expect.poll(() => log.positions.at(-1), { timeout: 10_000 }).toBe(version);
    await drained(socket, messages);
    log.stop();
    const positions = messages.filter((m) => m.type === 'event').map((m) => m.position);
    expect(positions).toEqual(
      Array.from({ length: version - execution.version }, (_, i) => execution.version + 1 + i),
    );
    expect(log.positions).toEqual(positions);
    const deltas = messages.filter((m) => m.type === 'delta');
    expect(deltas.map((d) => d.text).join('')).toBe(results[0].result);
    const order = messages.map((m) => m.event?.type ?? m.type);
    expect(order.indexOf('StepRunStarted')).toBeLessThan(order.indexOf('delta'));
    expect(order.lastIndexOf('delta')).toBeLessThan(order.indexOf('StepRunSucceeded'));
    socket.close();
  });

  /** `member` joins the workspace as a reviewer, invited by its owner (this test's user). */
  const joinAsReviewer = (workspaceId: string, member: Awaited<ReturnType<typeof signUp>>) =>
    join(
      owner,
      workspaceId,
      { client: as(t.app, member.cookie), id: member.user.id, email: member.email },
      'reviewer',
    );

  /** A socket of the user's, subscribed to nothing, once the server has it. */
  async function openSocket(who: string) {
    const socket = new WebSocket(`${base}/api/ws`, { headers: { cookie: who } });
    const messages: Pushed[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    await drained(socket, messages);
    return { socket, messages };
  }

  it("tells a flow's watchers of a start and the inboxes of a review at once, and once only, while the log tailer is held back", async () => {
    const client = as(t.app, cookie);
    const workspace = (await client.post('/api/workspaces', { name: 'Review team' })).json();
    const member = await signUp(t.app, 'Reviewer');
    await joinAsReviewer(workspace.id, member);
    const flow = (
      await client.post('/api/flows', {
        name: 'Reviewed',
        description: 'reviewed',
        workspaceId: workspace.id,
      })
    ).json();
    const step = (
      await client.post('/api/steps', {
        flowId: flow.id,
        order: 1,
        name: 'Draft',
        systemPrompt: 'Write a draft about tea.',
        review: { by: 'members', userIds: [member.user.id], approvals: 1 },
      })
    ).json();
    const watcher = await openSocket(cookie);
    watcher.socket.send(JSON.stringify({ type: 'subscribe', flowId: flow.id }));
    await expect.poll(() => watcher.messages.some((m) => m.type === 'up-to-date')).toBe(true);
    const inbox = await openSocket(member.cookie);
    const brought: string[] = [];
    const stopTailing = t.app.eventFeed.onEvents((events) => {
      for (const event of events) brought.push(`${event.streamId}#${event.type}`);
    });
    const letGo = await holdTheLog();
    let execution: { id: string };
    try {
      execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
      await expect
        .poll(() => watcher.messages.filter((m) => m.type === 'execution-started'))
        .toEqual([{ type: 'execution-started', flowId: flow.id, executionId: execution.id }]);
      await client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`);
      await expect.poll(() => inbox.messages.filter((m) => m.type === 'reviews-changed').length).toBe(1);
      expect(brought.filter((b) => b.startsWith(`execution-${execution.id}#`))).toEqual([]);
    } finally {
      await letGo();
    }
    // The log brings the same events later: nobody is told again.
    await expect
      .poll(() => brought.includes(`execution-${execution.id}#ReviewRequested`), { timeout: 10_000 })
      .toBe(true);
    stopTailing();
    await drained(watcher.socket, watcher.messages);
    await drained(inbox.socket, inbox.messages);
    expect(watcher.messages.filter((m) => m.type === 'execution-started')).toHaveLength(1);
    expect(inbox.messages.filter((m) => m.type === 'reviews-changed')).toHaveLength(1);
    watcher.socket.close();
    inbox.socket.close();
  });

  it('closes the socket of a member this process removes from a workspace at once, before anything later, and once only', async () => {
    const client = as(t.app, cookie);
    const workspace = (await client.post('/api/workspaces', { name: 'Held team' })).json();
    const member = await signUp(t.app, 'Member');
    const join = () => joinAsReviewer(workspace.id, member);
    await join();
    const flow = (
      await client.post('/api/flows', { name: 'Team', description: 'shared', workspaceId: workspace.id })
    ).json();
    const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    const watching = await subscribe(execution.id, execution.version, member.cookie);
    let closedWith: number | undefined;
    watching.socket.once('close', (code) => {
      closedWith = code;
    });
    const workspaceStream = `workspace-${workspace.id}`;
    const versionOf = async (streamId: string) => {
      const [{ version }] = await t.db.sql<[{ version: string }]>`
        SELECT version FROM streams WHERE stream_id = ${streamId}`;
      return Number(version);
    };
    // What the tailer brings from now on after the workspace's events so far (it may still be behind them).
    const log = tailed(workspaceStream, await versionOf(workspaceStream));
    const letGo = await holdTheLog();
    let again: Awaited<ReturnType<typeof subscribe>>;
    try {
      await client.delete(`/api/workspaces/${workspace.id}/members/${member.user.id}`);
      // Committed after the removal: the removed member must not see it, tailer or not.
      await client.post(`/api/executions/${execution.id}/stop`);
      await expect.poll(() => closedWith, { timeout: 5000 }).toBe(4403);
      // Added back and watching again before the log has brought the removal.
      await join();
      again = await subscribe(execution.id, execution.version, member.cookie);
      expect(log.positions).toEqual([]);
    } finally {
      await letGo();
    }
    expect(watching.messages.filter((m) => m.type === 'event')).toEqual([]);
    // The log brings the removal and the joining again: the removal was acted on already, the new socket stays.
    const workspaceVersion = await versionOf(workspaceStream);
    await expect.poll(() => log.positions.at(-1), { timeout: 10_000 }).toBe(workspaceVersion);
    log.stop();
    await drained(again.socket, again.messages);
    expect(again.socket.readyState).toBe(WebSocket.OPEN);
    // And it goes on hearing the execution: a reset after all that reaches it.
    await client.post(`/api/executions/${execution.id}/reset`);
    await expect.poll(() => again.messages.some((m) => m.event?.type === 'ExecutionReset')).toBe(true);
    again.socket.close();
  });

  it('lets watch what the access rule lets read: not a workspace one is no member of, whatever others one is in', async () => {
    const client = as(t.app, cookie);
    const outsider = await signUp(t.app, 'Outsider');
    const outsiderClient = as(t.app, outsider.cookie);
    const workspace = (await client.post('/api/workspaces', { name: 'Closed team' })).json();
    const flow = (
      await client.post('/api/flows', { name: 'Closed', description: 'closed', workspaceId: workspace.id })
    ).json();
    const theirs = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    /** What the subscription ends with: up-to-date after any replay, or an error. */
    const firstAnswer = async (who: string, topic: Record<string, string>) => {
      const { socket, messages } = await openSocket(who);
      const before = messages.length;
      socket.send(JSON.stringify({ type: 'subscribe', ...topic }));
      const ending = () => messages.slice(before).find((m) => m.type === 'up-to-date' || m.type === 'error');
      await expect.poll(ending).toBeDefined();
      socket.close();
      return ending();
    };
    // The outsider owns one workspace of their own, then two; never this test's user's.
    for (const name of ['Outsider one', 'Outsider two']) {
      await outsiderClient.post('/api/workspaces', { name });
      expect(await firstAnswer(outsider.cookie, { executionId: theirs.id })).toEqual({
        type: 'error',
        executionId: theirs.id,
        message: 'Không tìm thấy execution',
      });
      expect(await firstAnswer(outsider.cookie, { flowId: flow.id })).toEqual({
        type: 'error',
        flowId: flow.id,
        message: 'Không tìm thấy flow',
      });
    }
    // Their own, outside any workspace, they watch.
    const { flow: own } = await createFlow(outsiderClient, 'Own', [{ name: 'S', systemPrompt: 'Go' }]);
    const mine = (await outsiderClient.post(`/api/flows/${own.id}/execute`)).json();
    expect(await firstAnswer(outsider.cookie, { executionId: mine.id })).toMatchObject({
      type: 'up-to-date',
    });
    expect(await firstAnswer(outsider.cookie, { flowId: own.id })).toMatchObject({ type: 'up-to-date' });
  });

  it('replays only the events after the given position, then goes live', async () => {
    const client = as(t.app, cookie);
    const {
      flow,
      steps: [step],
    } = await createFlow(client, 'Replay', [{ name: 'S', systemPrompt: 'Go' }]);
    const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    await client.post(`/api/executions/${execution.id}/steps/${step.id}/execute`);
    const version = (await client.get(`/api/executions/${execution.id}`)).json().version;
    const { socket, messages } = await subscribe(execution.id, 2);
    const replayed = messages.filter((m) => m.type === 'event').map((m) => m.position);
    expect(replayed).toEqual(Array.from({ length: version - 2 }, (_, i) => i + 3));
    expect(messages.find((m) => m.type === 'up-to-date')?.position).toBe(version);
    await client.post(`/api/executions/${execution.id}/stop`);
    await expect.poll(() => messages.at(-1)?.event?.type).toBe('ExecutionStopped');
    expect(messages.at(-1)?.position).toBe(version + 1);
    socket.close();
  });
});
