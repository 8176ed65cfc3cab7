import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from './support/scripted-model';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

// Starting an execution and running a step answer from the state the command produced, not from a read
// of the read models: the answer must be exactly what GET /api/executions/:id reads back right after.
describe('command answers', () => {
  let t: TestApp;
  let alice: Client;
  const model = scriptedModel();

  beforeAll(async () => {
    t = await createTestApp({}, { resolveModel: () => ({ provider: model.provider, keySource: 'default' }) });
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(() => t.close());

  const readBack = async (executionId: string) => (await alice.get(`/api/executions/${executionId}`)).json();

  async function run(executionId: string, stepId: string, body: Record<string, unknown> = {}) {
    const response = await alice.post(`/api/executions/${executionId}/steps/${stepId}/execute`, body);
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.execution).toEqual(await readBack(executionId));
    return answer;
  }

  it('start and every step run answer what the execution then reads', async () => {
    const { flow, steps } = await createFlow(alice, 'Answers', [
      { name: 'Angles', systemPrompt: 'Give angles about tea.', outputMode: 'multiple' },
      {
        name: 'Pick',
        systemPrompt: 'Pick the best angle of [[step-1]].',
        outputMode: 'multiple_choice',
        choices: ['Health', 'History', 'Taste'],
      },
      { name: 'Drafts', systemPrompt: 'Draft a paragraph.', outputMode: 'loop', maxLoopIterations: 2 },
      { name: 'Title', systemPrompt: 'A title for [[step-3]].' },
    ]);
    const started = await alice.post(`/api/flows/${flow.id}/execute`);
    expect(started.statusCode).toBe(201);
    const execution = started.json();
    expect(execution).toEqual(await readBack(execution.id));

    const angles = JSON.stringify([
      { branchName: 'Health', content: 'Tea and health.' },
      { branchName: '', content: 'Tea through history.' },
      { branchName: 'Taste', content: 'Tea and taste.' },
    ]);
    model.answers.push(angles);
    const first = await run(execution.id, steps[0].id);
    expect(first.execution.results).toHaveLength(3);
    await alice.put(`/api/step-results/${first.results[0].id}`, { approved: true });
    await alice.put(`/api/step-results/${first.results[1].id}`, { result: 'Edited angle.', label: 'Mine' });
    await alice.delete(`/api/step-results/${first.results[2].id}`);

    model.answers.push(JSON.stringify({ choice: 'History', reason: 'It tells a story.' }));
    await run(execution.id, steps[1].id);
    model.answers.push('First draft.', 'Second draft.');
    await run(execution.id, steps[2].id);
    const loop = await run(execution.id, steps[2].id);
    expect(loop.execution.results.filter((r: { stepId: string }) => r.stepId === steps[2].id)).toHaveLength(
      2,
    );
    // A second version of the first step: results of one step from two runs, in the order they were made.
    model.answers.push(angles);
    const again = await run(execution.id, steps[0].id);
    expect(again.execution.results.filter((r: { stepId: string }) => r.stepId === steps[0].id)).toHaveLength(
      5,
    );
    await run(execution.id, steps[3].id);

    // A re-run from a later step carries reused results with their origin.
    await alice.put(`/api/step-results/${loop.results[0].id}`, { approved: true });
    const rerun = await alice.post(`/api/executions/${execution.id}/rerun-from/${steps[3].id}`);
    expect(rerun.statusCode).toBe(201);
    const reused = await run(rerun.json().id, steps[3].id);
    expect(reused.execution.results.some((r: { origin?: unknown }) => r.origin)).toBe(true);
  });
  it('with Prefer: return=minimal a step run answers its results and where the execution then stands', async () => {
    const { flow, steps } = await createFlow(alice, 'Short answers', [
      { name: 'Angles', systemPrompt: 'Give angles about tea.', outputMode: 'multiple' },
    ]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const sizes: number[] = [];
    for (let i = 0; i < 3; i++) {
      model.answers.push(
        JSON.stringify([
          { branchName: 'A', content: `Angle ${i} ${'a'.repeat(2000)}` },
          { branchName: 'B', content: `Other ${i}` },
        ]),
      );
      const response = await alice.post(
        `/api/executions/${execution.id}/steps/${steps[0].id}/execute`,
        {},
        {
          prefer: 'respond-async, return=minimal',
        },
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers['preference-applied']).toBe('return=minimal');
      const answer = response.json();
      const read = await readBack(execution.id);
      expect(Object.keys(answer).sort()).toEqual([
        'currentStep',
        'executionId',
        'results',
        'status',
        'version',
      ]);
      expect(answer).toEqual({
        executionId: execution.id,
        version: read.version,
        status: read.status,
        currentStep: read.currentStep,
        results: read.results.filter((r: { runId: string }) => r.runId === answer.results[0].runId),
      });
      expect(answer.results.map((r: { result: string }) => r.result)).toEqual([
        `Angle ${i} ${'a'.repeat(2000)}`,
        `Other ${i}`,
      ]);
      sizes.push(response.body.length);
    }
    // The answer does not grow with the execution: the third run's is the first's size.
    expect(sizes[2]).toBe(sizes[0]);
    // Without the preference the answer is the whole execution, as before.
    model.answers.push(JSON.stringify([{ branchName: 'A', content: 'Whole.' }]));
    const whole = await alice.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(whole.headers['preference-applied']).toBeUndefined();
    expect(whole.json().execution).toEqual(await readBack(execution.id));
  });
});
