import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeAllEnded, executeAllToTheEnd } from './support/execute-all';
import { echoPrompt, type FakeGemini, startFakeGemini } from './support/fake-gemini';
import { type ServerProcess, startServerProcess } from './support/server-process';

/** Long enough to poll through a busy machine, far shorter than the model timeout (120 s, the default). */
const DEADLINE = { timeout: 60_000, interval: 250 };
/** A slow answer: about a minute of chunks, so the call is still under way whenever the server is killed. */
const SLOW_ANSWER = { text: 'word '.repeat(120), chunkDelayMs: 1_500 };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the embedded PostgreSQL a killed server left running on the data directory, if any. */
async function stopEmbeddedPostgres(dataDir: string) {
  const pidFile = await readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(() => '');
  const pid = Number(pidFile.split('\n')[0]);
  if (!pid || !alive(pid)) return;
  process.kill(pid, 'SIGINT'); // PostgreSQL's fast shutdown
  const until = Date.now() + 30_000;
  while (alive(pid) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

describe('no operator after a crash: kill -9 during a model call, then start again', () => {
  let dir = '';
  let dataDir = '';
  let fake: FakeGemini;
  let slow = true;
  let server: ServerProcess;
  const started: ServerProcess[] = [];
  let cookie = '';

  const start = async () => {
    server = await startServerProcess(null, {
      DATA_DIR: dataDir,
      GEMINI_API_KEY: 'fake-gemini-key',
      GOOGLE_GEMINI_BASE_URL: fake.url,
    });
    started.push(server);
  };

  /** What the OOM killer does: the server is gone at once, its embedded PostgreSQL left running. */
  const killAndRestart = async () => {
    const killed = server;
    const exited = new Promise((resolve) => killed.child.once('exit', resolve));
    killed.child.kill('SIGKILL');
    await exited;
    await start();
  };

  const call = async (method: 'GET' | 'POST', route: string, body?: unknown) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  };

  /** A request the killed server will never answer: its failure is expected, not an error of the test. */
  const callToBeCutOff = (route: string) =>
    fetch(`${server.url}${route}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    }).then(
      (response) => response.status,
      () => 'cut off',
    );

  beforeAll(async () => {
    fake = await startFakeGemini({
      respond: (body, request) => (slow ? SLOW_ANSWER : echoPrompt(body, request)),
    });
    dir = await mkdtemp(path.join(tmpdir(), 'workbench-crash-fault-'));
    // As root the embedded PostgreSQL runs as `postgres`, which must reach the data directory.
    await chmod(dir, 0o755);
    dataDir = path.join(dir, 'data');
    await start();
    const registered = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'crash@example.com',
        password: 'correct horse battery',
        firstName: 'Lan',
        lastName: 'Pham',
      }),
    });
    expect(registered.status).toBeLessThan(300);
    cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0]!;
  }, 120_000);

  afterAll(async () => {
    for (const each of started) {
      if (each.child.exitCode === null && each.child.signalCode === null) await each.stop();
    }
    // A failure between a kill and the restart would leave the embedded PostgreSQL running.
    if (dataDir) await stopEmbeddedPostgres(dataDir);
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 120_000);

  it('a step run in progress is failed as interrupted at once, and the step runs again', async () => {
    slow = true;
    const flow = (await call('POST', '/api/flows', { name: 'Crash', description: 'A run cut off' })).body;
    const step = (
      await call('POST', '/api/steps', { flowId: flow.id, order: 1, name: 'Draft', systemPrompt: 'Draft it' })
    ).body;
    const execution = await call('POST', `/api/flows/${flow.id}/execute`, {});
    expect(execution.status).toBe(201);
    const executionId: string = execution.body.id;
    const requestsBefore = fake.requests.length;
    const cutOff = callToBeCutOff(`/api/executions/${executionId}/steps/${step.id}/execute`);
    await expect.poll(() => fake.requests.length, DEADLINE).toBeGreaterThan(requestsBefore);
    const running = (await call('GET', `/api/executions/${executionId}`)).body;
    expect(running.runs).toMatchObject([{ status: 'running' }]);

    await killAndRestart();
    expect(await cutOff).toBe('cut off');

    await expect
      .poll(async () => (await call('GET', `/api/executions/${executionId}`)).body.runs, DEADLINE)
      .toMatchObject([{ status: 'failed', message: 'interrupted' }]);
    slow = false;
    const again = await call('POST', `/api/executions/${executionId}/steps/${step.id}/execute`, {});
    expect(again.status).toBe(200);
    expect(again.body.results).toHaveLength(1);
    expect(again.body.results[0].result).toContain('Fake Gemini answer to:');
  }, 240_000);

  it('a master mode row run in progress, and its Execute All, are failed as interrupted at once', async () => {
    slow = true;
    const session = await call('POST', '/api/master-mode/standalone', { name: 'Sheet' });
    expect(session.status).toBe(201);
    const sessionId: string = session.body.id;
    const row = await call('POST', '/api/master-mode/steps', {
      sessionId,
      stepName: 'Summary',
      systemPrompt: 'Summarise',
      userInput: 'a long text',
    });
    expect(row.status).toBe(201);
    const requestsBefore = fake.requests.length;
    const started = await call('POST', `/api/master-mode/execute-all/${sessionId}`, {});
    expect(started.status).toBe(202);
    await expect.poll(() => fake.requests.length, DEADLINE).toBeGreaterThan(requestsBefore);
    const running = (await call('GET', `/api/master-mode/session/${sessionId}`)).body;
    expect(running.runningStepIds).toEqual([row.body.id]);
    expect(running.executeAll).toMatchObject({ runAllId: started.body.runAllId });

    await killAndRestart();

    await expect
      .poll(async () => (await call('GET', `/api/master-mode/session/${sessionId}/runs`)).body, DEADLINE)
      .toMatchObject([{ success: false, errorMessage: 'interrupted' }]);
    expect((await call('GET', `/api/master-mode/session/${sessionId}`)).body).toMatchObject({
      runningStepIds: [],
      executeAll: null,
    });
    // Its Execute All was closed too, as interrupted: a new one starts (no 409) and, the model now quick,
    // completes.
    expect(await executeAllEnded(call, sessionId, started.body.runAllId)).toMatchObject({
      outcome: 'failed',
      message: 'interrupted',
    });
    slow = false;
    expect((await executeAllToTheEnd(call, sessionId)).outcome).toBe('completed');
  }, 240_000);
});
