import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ModelProvider, ModelRequest } from '../src/ai';
import { masterAggregate } from '../src/api/master-mode/master-aggregate';
import { INSTANCE_LOCK_CLASS } from '../src/api/runtime/server-instance';
import type { MasterSessionWithSteps, MasterStep } from '../src/domain/master-mode/master-session';
import { callOf, executeAllEnded, executeAllToTheEnd } from './support/execute-all';
import {
  type AnotherInstance,
  anotherInstance,
  as,
  type Client,
  createTestApp,
  signUp,
  type TestApp,
} from './support/test-app';

/** Answers in three chunks; a prompt holding WAIT waits for the test to open the gate before its last chunk. */
function chunkedModel() {
  const calls: ModelRequest[] = [];
  const gates: (() => void)[] = [];
  const provider: ModelProvider = {
    kind: 'offline',
    model: 'offline',
    stream(request) {
      calls.push(request);
      const gate = request.prompt.includes('WAIT')
        ? new Promise<void>((resolve) => gates.push(resolve))
        : Promise.resolve();
      const chunks = async function* () {
        yield 'One, ';
        yield 'two, ';
        await gate;
        yield 'three.';
      };
      return Object.assign(chunks(), { final: gate.then(() => ({ text: 'One, two, three.', usage: null })) });
    },
  };
  return {
    provider,
    calls,
    waiting: () => gates.length,
    release: () => {
      for (const open of gates.splice(0)) open();
    },
  };
}

describe('master mode on the command handler, across server processes', () => {
  const model = chunkedModel();
  let t: TestApp;
  /** A second server process on the same database. */
  let other: AnotherInstance;
  let second: AnotherInstance['app'];
  let alice: Client;
  let aliceOnSecond: Client;
  let cookie: string;

  beforeAll(async () => {
    const resolveModel = () => ({ provider: model.provider, keySource: 'offline' as const });
    t = await createTestApp({}, { resolveModel });
    other = await anotherInstance(t.db.url, {}, { resolveModel });
    second = other.app;
    cookie = (await signUp(t.app, 'Alice')).cookie;
    alice = as(t.app, cookie);
    aliceOnSecond = as(second, cookie);
  });
  afterAll(async () => {
    model.release();
    await other.close();
    await t.close();
  });

  async function sessionWithRows(rows: Partial<MasterStep>[]) {
    const session = (
      await alice.post('/api/master-mode/standalone', { name: 'Sheet' })
    ).json() as MasterSessionWithSteps;
    for (const [i, row] of rows.entries()) {
      const added = await alice.post('/api/master-mode/steps', {
        sessionId: session.id,
        stepName: `Row ${i + 1}`,
        ...row,
      });
      expect(added.statusCode).toBe(201);
    }
    return session;
  }

  /** What a crash does to a process's hold on the database: its connection, and with it its lock, is gone. */
  /**
   * What another process sees of this one dying: its lock freed (its connection closed) and never taken
   * again (a live process would take it back within seconds, so it stops keeping it first).
   */
  async function dropInstanceLock(app: typeof second) {
    const id = app.serverInstance.id;
    await app.serverInstance.stop();
    await t.db.sql`
      SELECT pg_terminate_backend(pid) FROM pg_locks
      WHERE locktype = 'advisory' AND classid = ${INSTANCE_LOCK_CLASS} AND objid = ${id} AND objsubid = 2`;
    await expect.poll(() => second.serverInstance.gone([id]), { timeout: 10_000 }).toEqual([id]);
  }

  const runsOf = async (sessionId: string) =>
    (await alice.get(`/api/master-mode/session/${sessionId}/runs`)).json() as {
      id: string;
      stepId: string;
      success: boolean | null;
      errorMessage: string | null;
    }[];

  it('runs Execute All once when two processes are asked at the same time', async () => {
    const session = await sessionWithRows([
      { systemPrompt: 'WAIT here' },
      { stepType: 'text', userInput: 'b' },
      { stepType: 'text', userInput: 'c' },
    ]);
    const answers = await Promise.all([
      alice.post(`/api/master-mode/execute-all/${session.id}`),
      aliceOnSecond.post(`/api/master-mode/execute-all/${session.id}`),
    ]);
    // One started (202), the other was refused; the one started waits on the model.
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([202, 409]);
    const winner = answers.find((answer) => answer.statusCode === 202)!;
    const loser = answers.find((answer) => answer.statusCode === 409)!;
    expect(loser.json().message).toBe('Execute All đang chạy');
    await expect.poll(() => model.waiting()).toBe(1);
    // Asked again on either process while it runs: refused too.
    expect((await alice.post(`/api/master-mode/execute-all/${session.id}`)).statusCode).toBe(409);
    expect((await aliceOnSecond.post(`/api/master-mode/execute-all/${session.id}`)).statusCode).toBe(409);
    model.release();
    const ended = await executeAllEnded(callOf(alice), session.id, winner.json().runAllId);
    expect(ended.outcome).toBe('completed');
    expect(await runsOf(session.id)).toHaveLength(3);
  });

  it('a Stop sent to the other process ends Execute All between rows', async () => {
    const session = await sessionWithRows([
      { systemPrompt: 'WAIT here' },
      { stepType: 'text', userInput: 'b' },
    ]);
    const all = executeAllToTheEnd(callOf(alice), session.id);
    await expect.poll(() => model.waiting()).toBe(1);
    expect((await aliceOnSecond.post(`/api/master-mode/stop/${session.id}`)).json()).toEqual({
      stopped: true,
    });
    model.release();
    expect((await all).outcome).toBe('stopped');
    expect(await runsOf(session.id)).toHaveLength(1);
  });

  it('refuses a second run of a row while it runs, in any process', async () => {
    const session = await sessionWithRows([{ systemPrompt: 'WAIT here' }]);
    const [row] = (await (await alice.get(`/api/master-mode/session/${session.id}`)).json())
      .steps as MasterStep[];
    const run = alice.post(`/api/master-mode/execute/${row!.id}`);
    await expect.poll(() => model.waiting()).toBe(1);
    const again = await aliceOnSecond.post(`/api/master-mode/execute/${row!.id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Dòng 001 "Row 1" đang chạy');
    model.release();
    expect((await run).json().result).toBe('One, two, three.');
  });

  it('after a crash, a survivor fails the run as interrupted and closes its Execute All; it can run again', async () => {
    const session = await sessionWithRows([
      { systemPrompt: 'WAIT here' },
      { stepType: 'text', userInput: 'b' },
    ]);
    const all = await alice.post(`/api/master-mode/execute-all/${session.id}`);
    expect(all.statusCode).toBe(202);
    await expect.poll(() => model.waiting()).toBe(1);
    // While the first process lives, its run and Execute All are its own, however old.
    expect(await second.crashSweep.run(0)).toBe(0);
    // Then it is taken to have died: the second sweeps its run at once, well within the model timeout.
    await dropInstanceLock(t.app);
    expect(await second.crashSweep.run()).toBe(2);
    expect(await second.crashSweep.run()).toBe(0);
    const [run] = await runsOf(session.id);
    expect(run).toMatchObject({ success: false, errorMessage: 'interrupted' });
    expect((await aliceOnSecond.post(`/api/master-mode/stop/${session.id}`)).json()).toEqual({
      stopped: false,
    });
    expect((await alice.get(`/api/master-mode/session/${session.id}`)).json().runningStepIds).toEqual([]);

    expect(await executeAllEnded(callOf(alice), session.id, all.json().runAllId)).toMatchObject({
      outcome: 'failed',
      message: 'interrupted',
    });

    // The dead process's late answer is not recorded over the interruption.
    model.release();
    await expect.poll(() => t.app.runs.isRunning(session.id, run!.id)).toBe(false);
    expect((await runsOf(session.id))[0]).toMatchObject({ success: false, errorMessage: 'interrupted' });
    // Living on after all, the first process takes its lock again at its next sweep.
    await t.app.crashSweep.run();
    expect(await second.serverInstance.gone([t.app.serverInstance.id])).toEqual([]);
    const again = executeAllToTheEnd(callOf(aliceOnSecond), session.id);
    await expect.poll(() => model.waiting()).toBe(1);
    model.release();
    expect((await again).outcome).toBe('completed');
  });

  it('the sweep leaves alone the runs its own process is making', async () => {
    const session = await sessionWithRows([{ systemPrompt: 'WAIT here' }]);
    const all = executeAllToTheEnd(callOf(alice), session.id);
    await expect.poll(() => model.waiting()).toBe(1);
    expect(await t.app.crashSweep.run(0)).toBe(0);
    model.release();
    expect((await all).outcome).toBe('completed');
  });

  it("names the session's owner on its stream, so only the owner loads it; a deletion is recorded there too", async () => {
    const session = await sessionWithRows([{ stepType: 'text', userInput: 'a' }]);
    const bob = (await signUp(t.app, 'Bob')).user.id;
    const owner = (await alice.get('/api/auth/user')).json().id as string;
    const loaded = await second.commands.load(masterAggregate, session.id, owner);
    expect(loaded.state).toMatchObject({ ownerId: owner, deleted: false });
    await expect(second.commands.load(masterAggregate, session.id, bob)).rejects.toMatchObject({
      kind: 'not_found',
    });

    const all = await alice.post(`/api/master-mode/execute-all/${session.id}`);
    expect(all.statusCode).toBe(202);
    await executeAllEnded(callOf(alice), session.id, all.json().runAllId);
    expect((await aliceOnSecond.delete(`/api/master-mode/session/${session.id}`)).statusCode).toBe(204);
    const { events } = await t.store.readStream(`master-${session.id}`);
    expect(events.map((e) => e.type)).toEqual([
      'MasterSessionOpened',
      'MasterExecuteAllStarted',
      'MasterRowRunStarted',
      'MasterRowRunSucceeded',
      'MasterExecuteAllEnded',
      'MasterSessionDeleted',
    ]);
    expect(events.at(-1)!.metadata).toMatchObject({ userId: owner });
    expect((await alice.get(`/api/master-mode/session/${session.id}`)).statusCode).toBe(404);
    expect((await alice.post(`/api/master-mode/execute-all/${session.id}`)).statusCode).toBe(404);
  });

  it('a process closing ends its Execute All after the row under way, as interrupted', async () => {
    const closing = await anotherInstance(
      t.db.url,
      {},
      { resolveModel: () => ({ provider: model.provider, keySource: 'offline' as const }) },
    );
    const aliceOnClosing = as(closing.app, cookie);
    const session = await sessionWithRows([
      { systemPrompt: 'WAIT here' },
      { stepType: 'text', userInput: 'b' },
    ]);
    const all = await aliceOnClosing.post(`/api/master-mode/execute-all/${session.id}`);
    expect(all.statusCode).toBe(202);
    await expect.poll(() => model.waiting()).toBe(1);
    const closed = closing.close();
    model.release();
    await closed;
    expect(await executeAllEnded(callOf(alice), session.id, all.json().runAllId)).toMatchObject({
      outcome: 'failed',
      message: 'interrupted',
    });
    // The row under way ended with its answer; the next did not run.
    expect((await runsOf(session.id)).map((run) => run.success)).toEqual([true]);
  });

  it("streams an ai row's tokens and its events to the session's sockets, and only the owner's", async () => {
    const session = await sessionWithRows([{ systemPrompt: 'WAIT here' }]);
    const base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('http', 'ws');
    const socket = new WebSocket(`${base}/api/ws`, { headers: { cookie } });
    const messages: { type: string; runId?: string; text?: string; event?: { type: string } }[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'subscribe', masterSessionId: session.id, after: 0 }));
    await expect.poll(() => messages.some((m) => m.type === 'up-to-date')).toBe(true);

    const row = (await alice.get(`/api/master-mode/session/${session.id}`)).json().steps[0] as MasterStep;
    const run = alice.post(`/api/master-mode/execute/${row.id}`);
    await expect.poll(() => messages.filter((m) => m.type === 'delta').length).toBe(2);
    model.release();
    await run;
    await expect.poll(() => messages.some((m) => m.event?.type === 'MasterRowRunSucceeded')).toBe(true);
    const deltas = messages.filter((m) => m.type === 'delta');
    expect(deltas.map((d) => d.text).join('')).toBe('One, two, three.');
    expect(messages.map((m) => m.event?.type ?? m.type)).toEqual([
      'MasterSessionOpened',
      'up-to-date',
      'MasterRowRunStarted',
      'delta',
      'delta',
      'delta',
      'MasterRowRunSucceeded',
    ]);

    const bob = (await signUp(t.app, 'Bob')).cookie;
    const stranger = new WebSocket(`${base}/api/ws`, { headers: { cookie: bob } });
    const refused: { type: string; message?: string }[] = [];
    stranger.on('message', (raw) => refused.push(JSON.parse(String(raw))));
    await new Promise((resolve) => stranger.once('open', resolve));
    stranger.send(JSON.stringify({ type: 'subscribe', masterSessionId: session.id, after: 0 }));
    await expect
      .poll(() => refused[0])
      .toEqual({
        type: 'error',
        masterSessionId: session.id,
        message: 'Không tìm thấy master mode session',
      });
    socket.close();
    stranger.close();
  });
});
