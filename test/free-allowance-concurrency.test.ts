import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProvider } from '../src/ai';
import { gatedModel } from './support/gated-model';
import { as, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

const ALLOWANCE = 3;
const REQUESTS = 12;

describe('the free allowance under concurrent runs', () => {
  let t: TestApp;
  const model = gatedModel();

  beforeAll(async () => {
    t = await createTestApp(
      { freeStepAllowance: ALLOWANCE },
      { resolveModel: () => ({ provider: model.provider, keySource: 'default' }) },
    );
  });
  afterAll(async () => {
    model.release();
    await t?.close();
  });

  it('lets at most the allowance run at once, refuses the rest before any model call, and counts what ran', async () => {
    const client = as(t.app, (await signUp(t.app, 'Lan')).cookie);
    const {
      flow,
      steps: [step],
    } = await createFlow(client, 'Many at once', [
      { name: 'Write', systemPrompt: 'Write one line about tea' },
    ]);
    const executions: string[] = [];
    for (let i = 0; i < REQUESTS; i++)
      executions.push((await client.post(`/api/flows/${flow.id}/execute`)).json().id);

    const answers = executions.map((id) =>
      client.post(`/api/executions/${id}/steps/${step!.id}/execute`, { userInput: '' }),
    );
    // The ones let through are all waiting in the model; every other has been answered already.
    await expect.poll(model.calls).toBe(ALLOWANCE);
    model.release();
    const statuses = (await Promise.all(answers)).map((response) => response.statusCode);

    expect(statuses.filter((status) => status === 200)).toHaveLength(ALLOWANCE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(REQUESTS - ALLOWANCE);
    expect(model.calls()).toBe(ALLOWANCE);
    const usage = (await client.get('/api/user/usage')).json();
    expect(usage).toMatchObject({ usedSteps: ALLOWANCE, remainingSteps: 0 });
    // The usage rows gave their reservations back as they were recorded.
    expect(await t.db.sql`SELECT run_id FROM free_run_reservations`).toHaveLength(0);
  });

  it('gives a reservation back when the run fails, so the allowance is not spent on it', async () => {
    const failing: ModelProvider = {
      kind: 'gemini',
      model: 'failing',
      stream() {
        const final = Promise.reject(new Error('the model is away'));
        final.catch(() => {});
        return Object.assign(
          (async function* () {
            yield* [];
            throw new Error('the model is away');
          })(),
          { final },
        );
      },
    };
    const other = await createTestApp(
      { freeStepAllowance: 1 },
      { resolveModel: () => ({ provider: failing, keySource: 'default' }) },
    );
    try {
      const client = as(other.app, (await signUp(other.app, 'Minh')).cookie);
      const {
        flow,
        steps: [step],
      } = await createFlow(client, 'Fails', [{ name: 'Write', systemPrompt: 'Write one line' }]);
      const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
      const run = () =>
        client.post(`/api/executions/${execution.id}/steps/${step!.id}/execute`, { userInput: '' });
      expect((await run()).statusCode).toBe(502);
      expect((await run()).statusCode).toBe(502);
      expect(await other.db.sql`SELECT run_id FROM free_run_reservations`).toHaveLength(0);
      expect((await client.get('/api/user/usage')).json()).toMatchObject({ usedSteps: 0, remainingSteps: 1 });
    } finally {
      await other.close();
    }
  });
});
