import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decider } from '../src/domain/execution/decider';
import type { StepResult } from '../src/domain/execution/types';
import { toExecutionEvent } from '../src/projections/project-execution-events';
import { READ_MODEL_TABLES, rebuildProjections } from '../src/projections/rebuild';
import { type FakeGemini, promptOf, startFakeGemini } from './support/fake-gemini';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

interface Execution {
  id: string;
  flowId: string;
  status: string;
  currentStep: number;
  startedAt: string;
  results: StepResult[];
}

describe('re-run from a step', () => {
  let t: TestApp;
  let fake: FakeGemini;
  let alice: Client;
  let bob: Client;

  beforeAll(async () => {
    fake = await startFakeGemini({
      // Each answer names its call, so a result can be told apart from any other.
      respond: () => ({ text: `Gemini answer ${fake.requests.length}` }),
    });
    t = await createTestApp({ geminiApiKey: 'server-key', geminiBaseUrl: fake.url, freeStepAllowance: 100 });
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
    bob = as(t.app, (await signUp(t.app, 'Bob')).cookie);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A 3-step flow, each step built on the one before, and a run of it through step 3. */
  async function ranFlow(client: Client) {
    const { flow, steps } = await createFlow(client, 'Essay', [
      { name: 'Research', systemPrompt: 'Research tea' },
      { name: 'Outline', systemPrompt: 'Outline from [[step-1]]' },
      { name: 'Draft', systemPrompt: 'Draft from [[step-2]]' },
    ]);
    const source: Execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
    const run = async (executionId: string, stepId: string) => {
      const response = await client.post(`/api/executions/${executionId}/steps/${stepId}/execute`);
      expect(response.statusCode).toBe(200);
      return response.json().results as StepResult[];
    };
    const [first] = await run(source.id, steps[0].id);
    const [second] = await run(source.id, steps[1].id);
    const [third] = await run(source.id, steps[2].id);
    return { flow, steps, source, run, results: [first!, second!, third!] };
  }

  const view = async (client: Client, executionId: string): Promise<Execution> =>
    (await client.get(`/api/executions/${executionId}`)).json();

  it('reuses the approved results of the earlier steps and calls the model only for the chosen step', async () => {
    const { flow, steps, source, run, results } = await ranFlow(alice);
    const [first, second] = results;
    await alice.put(`/api/step-results/${first!.id}`, { approved: true });
    await alice.put(`/api/step-results/${second!.id}`, { approved: true, result: 'Outline: three acts' });
    // A later version of step 2 that is not approved is not carried on.
    const [unapproved] = await run(source.id, steps[1].id);
    const callsBefore = fake.requests.length;
    expect(callsBefore).toBe(4);

    const answer = await alice.post(`/api/executions/${source.id}/rerun-from/${steps[2].id}`);
    expect(answer.statusCode).toBe(201);
    const rerun: Execution = answer.json();
    expect(fake.requests).toHaveLength(callsBefore);
    expect(rerun).toEqual(await view(alice, rerun.id));
    expect(rerun).toMatchObject({ flowId: flow.id, status: 'running', currentStep: 3 });
    expect(rerun.id).not.toBe(source.id);
    expect((await alice.get(`/api/flows/${flow.id}/executions/latest`)).json().id).toBe(rerun.id);

    const origin = (resultId: string) => ({
      executionId: source.id,
      executionStartedAt: source.startedAt,
      resultId,
    });
    expect(rerun.results).toEqual([
      {
        ...first,
        id: expect.any(String),
        executionId: rerun.id,
        approved: true,
        createdAt: expect.any(String),
        origin: origin(first!.id),
      },
      {
        ...second,
        id: expect.any(String),
        executionId: rerun.id,
        result: 'Outline: three acts',
        approved: true,
        createdAt: expect.any(String),
        origin: origin(second!.id),
      },
    ]);
    expect(rerun.results.map((r) => r.id)).not.toContain(first!.id);
    expect(rerun.results.map((r) => r.result)).not.toContain(unapproved!.result);
    // Nothing was asked of a model, so nothing was logged or counted for the reused steps.
    expect(await t.db.sql`SELECT id FROM ai_request_logs WHERE execution_id = ${rerun.id}`).toHaveLength(0);
    expect(await t.db.sql`SELECT id FROM user_usage WHERE execution_id = ${rerun.id}`).toHaveLength(0);
    const { events } = await t.store.readStream(`execution-${rerun.id}`);
    expect(events.map((e) => e.type)).toEqual(['ExecutionStarted', 'ResultsReused']);

    const [draft] = await run(rerun.id, steps[2].id);
    expect(fake.requests).toHaveLength(callsBefore + 1);
    const prompt = promptOf(fake.requests.at(-1)!.body);
    expect(prompt).toContain('Draft from Outline: three acts');
    expect(prompt).not.toContain(unapproved!.result);
    expect(draft).toMatchObject({ stepOrder: 3, result: `Gemini answer ${callsBefore + 1}` });
    expect(draft).not.toHaveProperty('origin');
    expect(await view(alice, rerun.id)).toMatchObject({ status: 'completed' });
    // The source execution is left as it was.
    expect((await view(alice, source.id)).results).toHaveLength(4);
  });

  it('refuses (400) when a step before the chosen one has no approved result, naming it', async () => {
    const { flow, steps, source, results } = await ranFlow(alice);
    await alice.put(`/api/step-results/${results[0]!.id}`, { approved: true });
    const answer = await alice.post(`/api/executions/${source.id}/rerun-from/${steps[2].id}`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toMatch(/^Step 2 \(Outline\) chưa có kết quả nào được approve để dùng lại/);
    expect((await alice.get(`/api/flows/${flow.id}/executions/latest`)).json().id).toBe(source.id);
  });

  it("another user's execution or step is not found (404); a malformed id is a 400", async () => {
    const { steps, source, results } = await ranFlow(alice);
    for (const result of results) await alice.put(`/api/step-results/${result.id}`, { approved: true });
    const bobs = await ranFlow(bob);

    const foreign = await bob.post(`/api/executions/${source.id}/rerun-from/${steps[2].id}`);
    expect(foreign.statusCode).toBe(404);
    const foreignStep = await bob.post(`/api/executions/${bobs.source.id}/rerun-from/${steps[2].id}`);
    expect(foreignStep.statusCode).toBe(404);
    expect(foreignStep.json().message).toBe('Không tìm thấy step trong flow này');
    const malformed = await alice.post(`/api/executions/${source.id}/rerun-from/not-a-step`);
    expect(malformed.statusCode).toBe(400);
    expect((await t.db.sql`SELECT id FROM executions WHERE flow_id = ${bobs.flow.id}`).length).toBe(1);
  });

  it('the same command sent twice starts one execution', async () => {
    const { steps, source, results } = await ranFlow(alice);
    await alice.put(`/api/step-results/${results[0]!.id}`, { approved: true });
    const send = () =>
      alice.post(`/api/executions/${source.id}/rerun-from/${steps[1].id}`, undefined, {
        'idempotency-key': `rerun-${source.id}`,
      });
    const once = (await send()).json();
    const twice = (await send()).json();
    expect(twice.id).toBe(once.id);
    expect(once.results).toHaveLength(1);
  });

  it('the read model equals the replayed stream, and a rebuild reproduces it row for row', async () => {
    const { steps, source, results } = await ranFlow(alice);
    for (const result of results) await alice.put(`/api/step-results/${result.id}`, { approved: true });
    const rerun: Execution = (
      await alice.post(`/api/executions/${source.id}/rerun-from/${steps[1].id}`)
    ).json();
    const reusedId = rerun.results[0]!.id;
    await alice.put(`/api/step-results/${reusedId}`, { result: 'Edited after reuse' });

    const { events } = await t.store.readStream(`execution-${rerun.id}`);
    const state = events.map(toExecutionEvent).reduce(decider.evolve, decider.initialState());
    const shown = await view(alice, rerun.id);
    expect(shown.results).toEqual(state.results);
    expect(shown.results[0]).toMatchObject({
      result: 'Edited after reuse',
      origin: { resultId: results[0]!.id },
    });

    const snapshot = async () => {
      const tables: Record<string, unknown[]> = {};
      for (const table of READ_MODEL_TABLES) {
        tables[table] = await t.db.sql.unsafe(`SELECT * FROM ${table} ORDER BY ${table}::text`);
      }
      return tables;
    };
    const inline = await snapshot();
    const reusedRows = await t.db.sql`
      SELECT source_execution_id, source_result_id FROM step_results WHERE id = ${reusedId}`;
    expect(reusedRows).toEqual([{ sourceExecutionId: source.id, sourceResultId: results[0]!.id }]);
    await rebuildProjections(t.db.sql, t.store, 5);
    expect(await snapshot()).toEqual(inline);
  });
});
