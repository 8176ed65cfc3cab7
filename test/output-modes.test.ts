import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from './support/scripted-model';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

interface Result {
  id: string;
  stepId: string;
  label: string;
  branchName: string | null;
  branchPath: string | null;
  choiceIndex: number | null;
  loopIteration: number | null;
  approved: boolean;
  result: string;
}

describe('output modes through the API', () => {
  let t: TestApp;
  let alice: Client;
  const model = scriptedModel();

  beforeAll(async () => {
    t = await createTestApp({}, { resolveModel: () => ({ provider: model.provider, keySource: 'default' }) });
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(() => t.close());

  async function fourModeFlow() {
    const { flow, steps } = await createFlow(alice, 'Modes', [
      { name: 'Angles', systemPrompt: 'Give angles about tea.', outputMode: 'multiple' },
      {
        name: 'Pick',
        systemPrompt: 'Pick the best angle of [[step-1]].',
        outputMode: 'multiple_choice',
        choices: ['Health', 'History', 'Taste'],
      },
      { name: 'Drafts', systemPrompt: 'Draft a paragraph.', outputMode: 'loop', maxLoopIterations: 3 },
      { name: 'Title', systemPrompt: 'A title for [[step-3]].' },
    ]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    return { flow, steps, execution };
  }

  const run = (executionId: string, stepId: string, body: Record<string, unknown> = {}) =>
    alice.post(`/api/executions/${executionId}/steps/${stepId}/execute`, body);

  it('multiple: one result per alternative, named or "Branch n", none approved', async () => {
    const { steps, execution } = await fourModeFlow();
    model.answers.push(
      JSON.stringify([
        { branchName: 'Health', content: 'Tea and health.' },
        { branchName: '', content: 'Tea through history.' },
      ]),
    );
    const response = await run(execution.id, steps[0].id);
    expect(response.statusCode).toBe(200);
    const results: Result[] = response.json().results;
    expect(results.map((r) => [r.label, r.result, r.approved])).toEqual([
      ['Health', 'Tea and health.', false],
      ['Branch 2', 'Tea through history.', false],
    ]);
  });

  it('multiple_choice: the chosen path, approved and not unapprovable', async () => {
    const { steps, execution } = await fourModeFlow();
    model.answers.push(JSON.stringify([{ branchName: 'A', content: 'One angle.' }]));
    await run(execution.id, steps[0].id);
    model.answers.push(JSON.stringify({ choice: 'History', reason: 'History tells the best story.' }));
    const response = await run(execution.id, steps[1].id);
    expect(response.statusCode).toBe(200);
    const [chosen]: Result[] = response.json().results;
    expect(chosen).toMatchObject({ label: 'path: History', choiceIndex: 1, approved: true });
    const unapprove = await alice.put(`/api/step-results/${chosen!.id}`, { approved: false });
    expect(unapprove.statusCode).toBe(400);
  });

  it('loop: one result per iteration labelled "Loop n", a given iteration runs that one', async () => {
    const { steps, execution } = await fourModeFlow();
    const loop = steps[2];
    model.answers.push('First draft.', 'Third draft.', 'Second draft.');
    expect((await run(execution.id, loop.id)).json().results[0]).toMatchObject({
      label: 'Loop 1',
      loopIteration: 1,
    });
    const third = await run(execution.id, loop.id, { loopIteration: 3 });
    expect(third.json().results[0]).toMatchObject({ label: 'Loop 3', loopIteration: 3 });
    const second = await run(execution.id, loop.id);
    expect(second.json().results[0]).toMatchObject({ label: 'Loop 2', result: 'Second draft.' });
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    const loopItems = view.executionCache.filter((item: { stepId: string }) => item.stepId === loop.id);
    expect(loopItems.map((item: { status: string }) => item.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
    // Iteration 3 ran before 2, so only iteration 1 was in its prompt; iteration 2 saw 1 and 3's text.
    const logs = (await alice.get(`/api/flows/${execution.flowId}/logs`)).json();
    const loopPrompts = logs
      .filter((l: { stepId: string }) => l.stepId === loop.id)
      .map((l: { finalPrompt: string }) => l.finalPrompt)
      .reverse();
    expect(loopPrompts[1]).toContain('First draft.');
    expect(loopPrompts[1]).not.toContain('Third draft.');
  });

  it('refuses an iteration the loop does not have, and a bad one, losing nothing', async () => {
    const { steps, execution } = await fourModeFlow();
    expect((await run(execution.id, steps[2].id, { loopIteration: 0 })).statusCode).toBe(400);
    expect((await run(execution.id, steps[2].id, { loopIteration: 7 })).statusCode).toBe(404);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.runs).toHaveLength(0);
  });

  it('an answer that breaks the JSON contract fails the run with a message and no partial results', async () => {
    const { steps, execution } = await fourModeFlow();
    model.answers.push('not json at all');
    const response = await run(execution.id, steps[0].id);
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBeTruthy();
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.results).toHaveLength(0);
    expect(view.runs[0]).toMatchObject({ status: 'failed' });
  });
});
