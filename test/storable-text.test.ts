import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from './support/scripted-model';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

const NUL = 'a\u0000b';
const LONE = 'x\ud800y';

describe('text PostgreSQL cannot store', () => {
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app)).cookie);
  });
  afterAll(() => t.close());

  const counts = async () => {
    const [row] = await t.db.sql<{ flows: number; events: number; sessions: number }[]>`
      SELECT (SELECT count(*)::int FROM flows) AS flows, (SELECT count(*)::int FROM events) AS events,
             (SELECT count(*)::int FROM master_mode_steps) AS sessions`;
    return row!;
  };

  it('is refused with 400 naming the field, on every kind of route, and nothing is stored', async () => {
    const { flow, steps } = await createFlow(alice, 'Flow', [{ name: 'One', systemPrompt: 'Write' }]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const run = (await alice.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`)).json();
    const session = (await alice.post('/api/master-mode/standalone', { name: 'Sheet' })).json();
    const before = await counts();

    const refused = [
      [await alice.post('/api/flows', { name: NUL }), 'name'],
      [await alice.put(`/api/flows/${flow.id}`, { description: LONE }), 'description'],
      [
        await alice.post('/api/steps', { flowId: flow.id, order: 2, name: 'Two', systemPrompt: NUL }),
        'systemPrompt',
      ],
      [await alice.put(`/api/step-results/${run.results[0].id}`, { result: LONE }), 'result'],
      [
        await alice.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, { userInput: LONE }),
        'userInput',
      ],
      [
        await alice.post('/api/master-mode/steps', { sessionId: session.id, stepName: 'R', userInput: NUL }),
        'userInput',
      ],
      [
        await alice.post('/api/ai/create-from-json', { workflowJSON: { name: 'W', steps: [{ name: NUL }] } }),
        'workflowJSON.steps.0.name',
      ],
      [await alice.post('/api/flows', { name: 'ok', [NUL]: 1 }), NUL],
      [
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { email: 'n@example.com', password: 'correct horse battery', firstName: NUL },
        }),
        'firstName',
      ],
    ] as const;
    for (const [response, field] of refused) {
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(response.json().message).toBe(`${field}: chứa ký tự không lưu được (NUL hoặc surrogate đơn lẻ)`);
    }
    expect(await counts()).toEqual(before);
  });

  it('is told before a text over the length limit in the same part, wherever each is', async () => {
    const long = 'x'.repeat(t.app.config.limits.maxTextChars + 1);
    const both = await alice.post('/api/flows', { name: long, description: NUL });
    expect(both.statusCode).toBe(400);
    expect(both.json().message).toBe('description: chứa ký tự không lưu được (NUL hoặc surrogate đơn lẻ)');
    const longOnly = await alice.post('/api/flows', { name: 'ok', description: long });
    expect(longOnly.statusCode).toBe(413);
    expect(longOnly.json().message).toContain('description');
  });
});

describe("a model's answer holding text PostgreSQL cannot store", () => {
  const model = scriptedModel();
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    t = await createTestApp({}, { resolveModel: () => ({ provider: model.provider, keySource: 'default' }) });
    alice = as(t.app, (await signUp(t.app)).cookie);
  });
  afterAll(() => t.close());

  it('is kept, made storable (NUL dropped, a lone surrogate replaced), not thrown away', async () => {
    const { flow, steps } = await createFlow(alice, 'Flow', [{ name: 'One', systemPrompt: 'Write' }]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    model.answers.push(`An ${NUL} and ${LONE}`);
    const run = await alice.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(run.statusCode).toBe(200);
    expect(run.json().results.map((r: { result: string }) => r.result)).toEqual(['An ab and x\ufffdy']);
  });
});
