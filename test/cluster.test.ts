import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Exit, NGINX_TEMPLATE, renderNginxConfig } from '../src/api/cli/cluster-processes';
import { MESSAGES } from '../src/domain/execution/decide';
import { EXECUTE_ALL_RUNNING } from '../src/domain/master-mode/decider';
import { missingNginx, startCluster, type TestCluster } from './support/cluster';
import { createTestDatabase, type TestDatabase } from './support/database';
import { type Call, executeAllEnded } from './support/execute-all';
import { echoPrompt, type FakeGemini, type FakeGeminiRequest, startFakeGemini } from './support/fake-gemini';
import { follow as following, type StreamEvent } from './support/outage-load';

/** Long enough to poll through a busy machine. */
const DEADLINE = { timeout: 60_000, interval: 200 };
/** A prompt holding this gets an answer of about two minutes, so it is still under way when stopped or killed. */
const SLOW = '[slow answer]';
/** A prompt holding this gets an answer of about two seconds. */
const A_WHILE = '[answer in a while]';

const holds = (request: FakeGeminiRequest, text: string) => JSON.stringify(request.body).includes(text);

/** Every command the test sent and its answer: a status, or how the request failed. */
interface Sent {
  method: string;
  route: string;
  status: number | string;
  body: unknown;
}

describe('deploy/nginx.conf as a cluster renders it', () => {
  const template = readFileSync(NGINX_TEMPLATE, 'utf8');
  const options = { listen: '127.0.0.1:7000', ports: [7001, 7002], prefix: '/tmp/cluster' };
  const lines = (config: string, directive: RegExp) =>
    config
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => directive.test(line));
  const REWRITTEN = /^(listen|server \d\S*|pid|error_log|access_log|\w+_temp_path) /;

  it('has the listen address, one upstream server per instance and its own paths; the rest as written', () => {
    const config = renderNginxConfig(template, options);
    expect(lines(config, REWRITTEN)).toEqual([
      'pid /tmp/cluster/nginx.pid;',
      'error_log /tmp/cluster/logs/error.log warn;',
      'client_body_temp_path /tmp/cluster/temp/client_body;',
      'proxy_temp_path /tmp/cluster/temp/proxy;',
      'fastcgi_temp_path /tmp/cluster/temp/fastcgi;',
      'uwsgi_temp_path /tmp/cluster/temp/uwsgi;',
      'scgi_temp_path /tmp/cluster/temp/scgi;',
      'access_log /tmp/cluster/logs/access.log workbench;',
      'server 127.0.0.1:7001 max_fails=0;',
      'server 127.0.0.1:7002 max_fails=0;',
      'listen 127.0.0.1:7000;',
    ]);
    const rest = (text: string) => lines(text, /^/).filter((line) => !REWRITTEN.test(line));
    expect(rest(config)).toEqual(rest(template));
  });

  it('refuses a template that lacks a directive it rewrites', () => {
    expect(() => renderNginxConfig(template.replace(/^\s*pid .*$/m, ''), options)).toThrow(/pid/);
  });
});

const nginxMissing = missingNginx();

describe.skipIf(nginxMissing !== null)(
  `three instances behind nginx on one database${nginxMissing ? ` (skipped: ${nginxMissing})` : ''}`,
  () => {
    let db: TestDatabase;
    let fake: FakeGemini;
    let cluster: TestCluster;
    const clusters: TestCluster[] = [];
    const followers: (() => void)[] = [];
    let cookie = '';
    let clientCount = 0;

    const startTestCluster = async (env: Record<string, string>) => {
      const started = await startCluster({
        databaseUrl: db.url,
        env: {
          GEMINI_API_KEY: 'fake-gemini-key',
          GOOGLE_GEMINI_BASE_URL: fake.url,
          FREE_STEP_ALLOWANCE: '100000',
          ...env,
        },
      });
      clusters.push(started);
      return started;
    };

    const call = async (
      base: string,
      as: string,
      method: string,
      route: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => {
      const response = await fetch(`${base}${route}`, {
        method,
        headers: {
          // As a browser sends it: the page's own address, which the server checks against Host.
          origin: base,
          cookie: as,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      let parsed = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        parsed = text;
      }
      return { status: response.status, body: parsed };
    };

    /**
     * A new account signed up through nginx, as a browser of its own: each comes from another client address
     * (X-Forwarded-For, believed from the test on loopback), so the sign-up limit per address never counts them
     * together.
     */
    const signUp = async (base: string, name: string) => {
      clientCount++;
      const response = await fetch(`${base}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${clientCount}` },
        body: JSON.stringify({
          email: `${name.toLowerCase()}-${clientCount}@example.com`,
          password: 'correct horse battery',
          firstName: name,
          lastName: 'Nguyen',
        }),
      });
      expect(response.status).toBe(201);
      return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
    };

    /** A flow with one step per system prompt, and an execution of it, all through `base`. */
    const flowWithExecution = async (base: string, as: string, name: string, prompts: string[]) => {
      const flow = await call(base, as, 'POST', '/api/flows', { name, description: `${name} flow` });
      expect(flow.status).toBe(201);
      const steps: { id: string }[] = [];
      for (const [i, systemPrompt] of prompts.entries()) {
        const step = await call(base, as, 'POST', '/api/steps', {
          flowId: flow.body.id,
          order: i + 1,
          name: `Step ${i + 1}`,
          systemPrompt,
        });
        expect(step.status).toBe(201);
        steps.push(step.body);
      }
      const execution = await call(base, as, 'POST', `/api/flows/${flow.body.id}/execute`, {});
      expect(execution.status).toBe(201);
      return { flowId: flow.body.id as string, steps, executionId: execution.body.id as string };
    };

    const runRoute = (executionId: string, stepId: string) =>
      `/api/executions/${executionId}/steps/${stepId}/execute`;

    /** The execution's events as the event log has them, read through nginx. */
    const storedEvents = async (executionId: string, as = cookie): Promise<StreamEvent[]> => {
      const events: StreamEvent[] = [];
      let cursor: string | null = null;
      do {
        const from: string = cursor === null ? '' : `&cursor=${cursor}`;
        const page = await call(
          cluster.url,
          as,
          'GET',
          `/api/executions/${executionId}/events?limit=200${from}`,
        );
        expect(page.status).toBe(200);
        for (const { position, type, data } of page.body.items) events.push({ position, type, data });
        cursor = page.body.nextCursor;
      } while (cursor !== null);
      return events;
    };

    /** A websocket client through nginx following an execution as the web app does (test/support/outage-load.ts). */
    const follow = (executionId: string, as: string) => {
      const follower = following(() => cluster.url, executionId, as);
      followers.push(follower.unwatch);
      return follower;
    };

    /** 1..n: every position once, in order. */
    const positionsUpTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

    /** A request expected to be cut off with its server: its failure is its outcome. */
    const cutOff = (request: Promise<{ status: number }>) =>
      request.then(
        (answer) => answer.status,
        () => 'cut off',
      );

    /** `promise`, or a failure naming `what` once `ms` have passed. */
    const within = <T>(promise: Promise<T>, ms: number, what: string) =>
      Promise.race([
        promise,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms).unref(),
        ),
      ]);

    beforeAll(async () => {
      db = await createTestDatabase();
      fake = await startFakeGemini({
        respond: (body, request) => {
          const text = JSON.stringify(body);
          if (text.includes(SLOW)) return { text: 'word '.repeat(360), chunkDelayMs: 1_000 };
          if (text.includes(A_WHILE)) return { text: 'word '.repeat(30), chunkDelayMs: 200 };
          return echoPrompt(body, request);
        },
      });
      // The model call limit is off here; the case of the limits starts instances of its own.
      cluster = await startTestCluster({ MODEL_CALLS_PER_MINUTE: '0' });
      cookie = await signUp(cluster.url, 'Lan');
    }, 180_000);

    afterAll(async () => {
      for (const unwatch of followers) unwatch();
      for (const each of clusters) await each.stop().catch(() => {});
      await fake?.close();
      await db?.drop();
    }, 180_000);

    it('spreads the commands of one user over all three instances, and answers each right', async () => {
      const logged = (await cluster.proxied()).length;
      const { steps, executionId } = await flowWithExecution(cluster.url, cookie, 'Round robin', [
        'Draft it',
        'Shorten it',
        'Title it',
      ]);
      for (const step of steps) {
        const ran = await call(cluster.url, cookie, 'POST', runRoute(executionId, step.id), {});
        expect(ran.status).toBe(200);
        expect(ran.body.results).toHaveLength(1);
        expect(ran.body.results[0].result).toContain('Fake Gemini answer to:');
        const approved = await call(
          cluster.url,
          cookie,
          'PUT',
          `/api/step-results/${ran.body.results[0].id}`,
          {
            approved: true,
          },
        );
        expect(approved.status).toBe(200);
        expect(approved.body.approved).toBe(true);
      }
      const execution = await call(cluster.url, cookie, 'GET', `/api/executions/${executionId}`);
      expect(execution.body.status).toBe('completed');
      expect(execution.body.results.map((r: { approved: boolean }) => r.approved)).toEqual([
        true,
        true,
        true,
      ]);

      const commands = (await cluster.proxied()).slice(logged).filter((request) => request.method !== 'GET');
      // The flow, its three steps, the start, three runs and three approvals.
      expect(commands).toHaveLength(11);
      expect(commands.every((request) => request.status < 300)).toBe(true);
      const answeredBy = new Set(commands.map((request) => request.upstreamPorts.at(-1)));
      expect([...answeredBy].sort()).toEqual([...cluster.ports].sort());
    }, 120_000);

    it('pushes to a websocket on one instance every event of commands answered by the others, once and in order', async () => {
      const { steps, executionId } = await flowWithExecution(cluster.url, cookie, 'Live', [
        'Say hi',
        'Expand [[step-1]]',
      ]);
      const follower = follow(executionId, cookie);
      await expect.poll(follower.upToDate, DEADLINE).toBe(true);
      const logged = (await cluster.proxied()).length;

      for (const step of steps) {
        const ran = await call(cluster.url, cookie, 'POST', runRoute(executionId, step.id), {});
        expect(ran.status).toBe(200);
        const route = `/api/step-results/${ran.body.results[0].id}`;
        expect((await call(cluster.url, cookie, 'PUT', route, { result: `Edited ${step.id}` })).status).toBe(
          200,
        );
        expect((await call(cluster.url, cookie, 'PUT', route, { approved: true })).status).toBe(200);
      }
      const commands = (await cluster.proxied()).slice(logged).filter((request) => request.method !== 'GET');
      expect(new Set(commands.map((request) => request.upstreamPorts.at(-1))).size).toBe(3);

      const stored = await storedEvents(executionId);
      expect(stored.map((event) => event.type)).toContain('ExecutionCompleted');
      await expect.poll(() => follower.events.length, DEADLINE).toBeGreaterThanOrEqual(stored.length);
      expect(follower.events.map((event) => event.position)).toEqual(positionsUpTo(stored.length));
      expect(follower.events).toEqual(stored);
      follower.unwatch();
    }, 120_000);

    it("stops a model call on one instance by a Stop sent to another, and the run's request answers 409", async () => {
      const [a, b] = [cluster.instance(0).url, cluster.instance(1).url];
      const { steps, executionId } = await flowWithExecution(cluster.url, cookie, 'Stop', ['Draft it']);
      const asked = fake.requests.length;
      const run = call(a, cookie, 'POST', runRoute(executionId, steps[0]!.id), { userInput: `Long ${SLOW}` });
      await expect.poll(() => fake.requests.length, DEADLINE).toBeGreaterThan(asked);
      const modelCall = fake.requests[asked]!;
      expect(holds(modelCall, SLOW)).toBe(true);

      const stopped = await call(b, cookie, 'POST', `/api/executions/${executionId}/stop`, {});
      expect(stopped.status).toBe(200);
      expect(stopped.body.status).toBe('stopped');
      // The slow answer takes two minutes; stopped, the run ends long before.
      const answer = await within(run, 60_000, 'the run on the other instance did not end after Stop');
      expect(answer.status).toBe(409);
      expect(answer.body.message).toBe(MESSAGES.stopped);
      await expect.poll(() => fake.cancelled.includes(modelCall), DEADLINE).toBe(true);
    }, 180_000);

    it('runs an Execute All sent at once to two instances once: the other answers 409', async () => {
      const [a, b] = [cluster.instance(0).url, cluster.instance(1).url];
      const session = await call(cluster.url, cookie, 'POST', '/api/master-mode/standalone', {
        name: 'Sheet',
      });
      expect(session.status).toBe(201);
      const sessionId: string = session.body.id;
      const tag = `sheet-${randomUUID()}`;
      for (const row of ['One', 'Two']) {
        const added = await call(cluster.url, cookie, 'POST', '/api/master-mode/steps', {
          sessionId,
          stepName: row,
          systemPrompt: `Summarise ${A_WHILE} ${tag}`,
          userInput: `Row ${row}`,
        });
        expect(added.status).toBe(201);
      }
      const route = `/api/master-mode/execute-all/${sessionId}`;
      const answers = await Promise.all([
        call(a, cookie, 'POST', route, {}),
        call(b, cookie, 'POST', route, {}),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
      const [ran, refused] = answers[0]!.status === 202 ? answers : [answers[1]!, answers[0]!];
      expect(refused!.body.message).toBe(EXECUTE_ALL_RUNNING);
      // Followed through the balancer, from whichever instance answers.
      const viaBalancer: Call = (method, url) => call(cluster.url, cookie, method, url);
      expect((await executeAllEnded(viaBalancer, sessionId, ran!.body.runAllId)).outcome).toBe('completed');
      expect(fake.requests.filter((request) => holds(request, tag))).toHaveLength(2);
      const runs = await call(cluster.url, cookie, 'GET', `/api/master-mode/session/${sessionId}/runs`);
      expect(runs.body.map((r: { success: boolean }) => r.success)).toEqual([true, true]);
    }, 180_000);

    it('limits model calls per user and sign-ins per client address across the instances', async () => {
      const limited = await startTestCluster({ MODEL_CALLS_PER_MINUTE: '4' });
      try {
        const as = await signUp(limited.url, 'Mai');
        const { steps, executionId } = await flowWithExecution(limited.url, as, 'Limited', ['Draft it']);
        const logged = (await limited.proxied()).length;
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          statuses.push(
            (await call(limited.url, as, 'POST', runRoute(executionId, steps[0]!.id), {})).status,
          );
        }
        const runs = (await limited.proxied()).slice(logged);
        expect(new Set(runs.map((request) => request.upstreamPorts.at(-1))).size).toBe(3);
        expect(statuses).toEqual([200, 200, 200, 200, 429]);

        const signIn = async () => {
          const response = await fetch(`${limited.url}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.77' },
            body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password!' }),
          });
          return response.status;
        };
        const attempts: number[] = [];
        for (let i = 0; i < 11; i++) attempts.push(await signIn());
        expect(attempts).toEqual([...Array.from({ length: 10 }, () => 401), 429]);
      } finally {
        await limited.stop();
      }
    }, 180_000);

    it('fails a run whose instance was killed as interrupted, on a survivor, and the step runs again', async () => {
      const a = cluster.instance(0).url;
      const { steps, executionId } = await flowWithExecution(cluster.url, cookie, 'Crash', ['Draft it']);
      const asked = fake.requests.length;
      const run = cutOff(call(a, cookie, 'POST', runRoute(executionId, steps[0]!.id), { userInput: SLOW }));
      await expect.poll(() => fake.requests.length, DEADLINE).toBeGreaterThan(asked);
      const running = await call(cluster.url, cookie, 'GET', `/api/executions/${executionId}`);
      expect(running.body.runs).toMatchObject([{ status: 'running' }]);

      expect(await cluster.killInstance(0)).toEqual({ code: null, signal: 'SIGKILL' });
      expect(await run).toBe('cut off');
      // The survivors sweep every 30 s.
      await expect
        .poll(
          async () => (await call(cluster.url, cookie, 'GET', `/api/executions/${executionId}`)).body.runs,
          { timeout: 90_000, interval: 1_000 },
        )
        .toMatchObject([{ status: 'failed', message: 'interrupted' }]);
      const again = await call(cluster.url, cookie, 'POST', runRoute(executionId, steps[0]!.id), {});
      expect(again.status).toBe(200);
      expect(again.body.results[0].result).toContain('Fake Gemini answer to:');

      await cluster.startInstance(0);
      const back = await call(cluster.instance(0).url, cookie, 'GET', `/api/executions/${executionId}`);
      expect(back.body.status).toBe('completed');
    }, 240_000);

    it('restarts the instances one by one under load, every command answered and every event pushed once', async () => {
      // The execution the websocket follows; one load client keeps changing it.
      const followed = await flowWithExecution(cluster.url, cookie, 'Followed', ['Draft it']);
      const first = await call(
        cluster.url,
        cookie,
        'POST',
        runRoute(followed.executionId, followed.steps[0]!.id),
        {},
      );
      expect(first.status).toBe(200);
      const follower = follow(followed.executionId, cookie);
      await expect.poll(follower.upToDate, DEADLINE).toBe(true);

      const sent: Sent[] = [];
      let loading = true;
      /** A command with its own Idempotency-Key, as a browser sends it. */
      const command = async (as: string, method: string, route: string, body: unknown) => {
        const answer = await call(cluster.url, as, method, route, body, {
          'idempotency-key': randomUUID(),
        }).catch((error: Error) => ({ status: `connection error: ${error.message}`, body: null }));
        sent.push({ method, route, status: answer.status, body: answer.body });
        return answer;
      };
      const flows = async (as: string) => {
        const { flowId, steps } = await flowWithExecution(cluster.url, as, 'Load', ['Draft it', 'Check it']);
        while (loading) {
          const started = await command(as, 'POST', `/api/flows/${flowId}/execute`, {});
          if (started.status !== 201) continue;
          for (const step of steps) {
            const ran = await command(as, 'POST', runRoute(started.body.id, step.id), {});
            if (ran.status !== 200) break;
            await command(as, 'PUT', `/api/step-results/${ran.body.results[0].id}`, { approved: true });
          }
        }
      };
      const edits = async () => {
        const resultId: string = first.body.results[0].id;
        for (let n = 1; loading; n++) {
          await command(cookie, 'PUT', `/api/step-results/${resultId}`, { result: `Edit ${n}` });
          await command(cookie, 'POST', runRoute(followed.executionId, followed.steps[0]!.id), {});
        }
      };
      const users = [
        await signUp(cluster.url, 'Hoa'),
        await signUp(cluster.url, 'Minh'),
        await signUp(cluster.url, 'Tuan'),
      ];
      const load = Promise.all([...users.map(flows), edits()]);

      const exits: Exit[] = [];
      try {
        for (const [index, port] of cluster.ports.entries()) {
          await expect.poll(() => sent.length, DEADLINE).toBeGreaterThan(0);
          exits.push(await cluster.stopInstance(index));
          const logged = (await cluster.proxied()).length;
          await cluster.startInstance(index);
          // Answering commands again: nginx never takes it out of the rotation, so once it listens it serves.
          await expect
            .poll(
              async () =>
                (await cluster.proxied())
                  .slice(logged)
                  .some((request) => request.upstreamPorts.at(-1) === port && request.status < 300),
              DEADLINE,
            )
            .toBe(true);
        }
      } finally {
        loading = false;
        await load;
      }
      expect(exits).toEqual(cluster.ports.map(() => ({ code: 0, signal: null })));
      expect(sent.filter((each) => typeof each.status !== 'number' || each.status >= 300)).toEqual([]);

      const stored = await storedEvents(followed.executionId);
      await expect.poll(() => follower.events.length, DEADLINE).toBeGreaterThanOrEqual(stored.length);
      expect(follower.events.map((event) => event.position)).toEqual(positionsUpTo(stored.length));
      expect(follower.events).toEqual(stored);
      // Its instance was restarted too: it reconnected and resumed.
      expect(follower.connections()).toBeGreaterThan(1);
      follower.unwatch();
    }, 300_000);
  },
);
