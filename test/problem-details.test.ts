import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_TYPE_PREFIX } from '../src/api/http/errors';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  json(): unknown;
}

/** An answer that is a problem of the given status and code: RFC 9457 members, and `message` = `detail`. */
function expectProblem(response: Answer, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  const problem = response.json() as Record<string, unknown>;
  expect(problem).toMatchObject({
    type: `${PROBLEM_TYPE_PREFIX}${code}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
  });
  expect(problem.message).toBe(problem.detail);
  return problem;
}

describe('every error is a problem (application/problem+json), Fastify’s own included', () => {
  let t: TestApp;
  let alice: Client;
  let cookie: string;

  beforeAll(async () => {
    t = await createTestApp({ modelCallsPerMinute: 1 });
    ({ cookie } = await signUp(t.app, 'Alice'));
    alice = as(t.app, cookie);
  });
  afterAll(() => t.close());

  it('answers malformed input 400 invalid_input with its issues', async () => {
    const problem = expectProblem(await alice.post('/api/flows', { name: 5 }), 400, 'invalid_input');
    expect(problem.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: ['name'] })]));
    expect(problem.detail).toMatch(/^name: /);
  });

  it('answers a well-formed body against a rule of the product 400 rule_violated, with its issues', async () => {
    const step = { name: 'A', order: 1, systemPrompt: 'x', outputMode: 'single', inputSources: ['step-2'] };
    const broken = await alice.post('/api/ai/create-from-json', {
      workflowJSON: { name: 'W', description: 'd', steps: [step] },
    });
    const problem = expectProblem(broken, 400, 'rule_violated');
    expect(problem.issues).toEqual([
      expect.objectContaining({ path: ['workflowJSON', 'steps', '0', 'inputSources', '0'] }),
    ]);
    // A shape the schema refuses stays malformed input, also beside a broken rule.
    const both = await alice.post('/api/ai/create-from-json', {
      workflowJSON: { name: 'W', description: 'd', steps: [{ ...step, order: 'first' }] },
    });
    expectProblem(both, 400, 'invalid_input');
  });

  it('answers 401 signed_out, 403 forbidden_origin for another origin, 404 not_found', async () => {
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/flows' }), 401, 'signed_out');
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/flows',
        headers: { cookie, origin: 'https://elsewhere.example' },
        payload: { name: 'x' },
      }),
      403,
      'forbidden_origin',
    );
    expectProblem(await alice.get('/api/flows/4f9a1c2e-0000-4000-8000-000000000001'), 404, 'not_found');
    expect(expectProblem(await alice.get('/api/no-such-thing'), 404, 'not_found').detail).toBe(
      'Không tìm thấy',
    );
  });

  it('answers a known path with another method 405 with Allow', async () => {
    const response = await alice.put('/api/flows', {});
    expectProblem(response, 405, 'method_not_allowed');
    expect(response.headers.allow).toBe('GET, HEAD, POST');
    const { flow } = await createFlow(alice, 'Methods', [{ name: 'One', systemPrompt: 'Say one' }]);
    const onFlow = await alice.post(`/api/flows/${flow.id}`, {});
    expectProblem(onFlow, 405, 'method_not_allowed');
    expect(String(onFlow.headers.allow).split(', ')).toEqual(
      expect.arrayContaining(['DELETE', 'GET', 'PUT']),
    );
  });

  it('answers Fastify’s own refusals as problems: 413, 414, 415', async () => {
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/flows',
        headers: { cookie, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024) }),
      }),
      413,
      'too_large',
    );
    expectProblem(await alice.get(`/api/flows/${'a'.repeat(2_000)}`), 414, 'url_too_long');
    expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/flows',
        headers: { cookie, 'content-type': 'text/xml' },
        payload: '<flow/>',
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('answers a body that is not JSON, or empty under a JSON type, 400 invalid_input in the API’s language', async () => {
    const broken = expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/flows',
        headers: { cookie, 'content-type': 'application/json' },
        payload: '{"name":',
      }),
      400,
      'invalid_input',
    );
    expect(broken.detail).toBe('Nội dung request không phải JSON hợp lệ.');
    const empty = expectProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/flows',
        headers: { cookie, 'content-type': 'application/json' },
        payload: '',
      }),
      400,
      'invalid_input',
    );
    expect(empty.detail).toMatch(/nội dung trống/);
  });

  it('answers a body that is the JSON null 400 where a body may be left out, and takes no body there', async () => {
    // A user of their own: the one model call a minute here is Alice's for the limits below.
    const nam = await signUp(t.app, 'Nam');
    const client = as(t.app, nam.cookie);
    const { flow, steps } = await createFlow(client, 'Null bodies', [
      { name: 'One', systemPrompt: 'Say one' },
    ]);
    const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json() as { id: string };
    const session = (await client.post('/api/master-mode/standalone', { name: 'Sheet' })).json() as {
      id: string;
    };
    const row = (
      await client.post('/api/master-mode/steps', {
        sessionId: session.id,
        stepName: 'Row',
        stepType: 'text',
      })
    ).json() as { id: string };
    const withNull = (method: 'POST' | 'PUT', url: string) =>
      t.app.inject({
        method,
        url,
        headers: { cookie: nam.cookie, 'content-type': 'application/json' },
        payload: 'null',
      });
    for (const [method, url] of [
      ['POST', `/api/executions/${execution.id}/steps/${steps[0]!.id}/execute`],
      ['PUT', `/api/master-mode/steps/${row.id}`],
      ['POST', `/api/flows/${flow.id}/execute`],
      ['POST', `/api/master-mode/standalone`],
    ] as const) {
      const refused = expectProblem(await withNull(method, url), 400, 'invalid_input');
      expect(refused.detail, `${method} ${url}`).toMatch(/không phải null/);
    }
    // No body at all is still no fields.
    expect((await client.put(`/api/master-mode/steps/${row.id}`)).statusCode).toBe(200);
    expect(
      (await client.post(`/api/executions/${execution.id}/steps/${steps[0]!.id}/execute`)).statusCode,
    ).toBe(200);
  });

  it('answers what Node’s HTTP parser refuses, before Fastify sees it, as a problem too', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    const socket = connect({ port, host: '127.0.0.1' });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', () => {});
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // A header value holding a control character (\x01).
    socket.write(`GET /api/flows HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: a\x01b\r\nCookie: ${cookie}\r\n\r\n`);
    await closed;
    const [head, body] = received.split('\r\n\r\n') as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/i);
    expect(JSON.parse(body)).toMatchObject({
      type: `${PROBLEM_TYPE_PREFIX}invalid_input`,
      status: 400,
      code: 'invalid_input',
      title: expect.any(String),
      detail: expect.any(String),
    });
  });

  it('tells the limits apart: the model-call rate limit and the free allowance, each with its code', async () => {
    const { flow, steps } = await createFlow(alice, 'Limits', [{ name: 'One', systemPrompt: 'Say one' }]);
    const runOnce = async () => {
      const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json() as { id: string };
      return alice.post(`/api/executions/${execution.id}/steps/${steps[0]!.id}/execute`, { userInput: '' });
    };
    // Malformed requests are refused before they count: the one call a minute is still there after them.
    for (let i = 0; i < 3; i++) {
      const malformed = await alice.post(`/api/executions/not-an-id/steps/${steps[0]!.id}/execute`, {});
      expectProblem(malformed, 400, 'invalid_input');
    }
    expect((await runOnce()).statusCode).toBe(200);
    const limited = await runOnce();
    expectProblem(limited, 429, 'model_call_rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    // Without a rate limit, the free allowance is what stops the runs.
    const unlimited = await createTestApp({ modelCallsPerMinute: 0, freeStepAllowance: 1 });
    try {
      const bob = as(unlimited.app, (await signUp(unlimited.app, 'Bob')).cookie);
      const bobs = await createFlow(bob, 'Allowance', [{ name: 'One', systemPrompt: 'Say one' }]);
      const run = async () => {
        const execution = (await bob.post(`/api/flows/${bobs.flow.id}/execute`)).json() as { id: string };
        return bob.post(`/api/executions/${execution.id}/steps/${bobs.steps[0]!.id}/execute`, {
          userInput: '',
        });
      };
      expect((await run()).statusCode).toBe(200);
      expectProblem(await run(), 429, 'free_allowance_used_up');
    } finally {
      await unlimited.close();
    }
  });
});
