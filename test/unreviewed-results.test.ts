import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepRun } from '../src/domain/execution/types';
import { as, type Client, createTestApp, signUp, type TestApp, teaFlowExecution } from './support/test-app';

interface Log {
  id: string;
  stepOrder: number;
  unreviewedResults: Array<{ resultId: string; stepId: string; stepOrder: number; label: string | null }>;
}

describe('a run whose prompt used results nobody approved says which', () => {
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    t = await createTestApp();
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(() => t?.close());

  it('records them with the run: the execution, the run answer and the request log carry them', async () => {
    const { flow, steps, executionId, run } = await teaFlowExecution(alice);

    const first = await run(steps[0].id);
    expect(first.statusCode).toBe(200);
    const idea = first.json().results[0] as { id: string; approved: boolean };
    expect(idea.approved).toBe(false);

    // Nothing approved: step 2 goes on with step 1's result as it is, and says so.
    const second = await run(steps[1].id);
    expect(second.statusCode).toBe(200);
    const used = [{ resultId: idea.id, stepId: steps[0].id, stepOrder: 1, label: 'Branch 1' }];
    const runOf = (runs: StepRun[], stepId: string) => runs.filter((r) => r.stepId === stepId).at(-1);
    expect(runOf(second.json().execution.runs, steps[1].id)?.unreviewedResults).toEqual(used);

    const execution = (await alice.get(`/api/executions/${executionId}`)).json();
    expect(runOf(execution.runs, steps[1].id)?.unreviewedResults).toEqual(used);
    expect(runOf(execution.runs, steps[0].id)).not.toHaveProperty('unreviewedResults');

    let logs = (await alice.get(`/api/flows/${flow.id}/logs`)).json() as Log[];
    expect(logs.map((log) => [log.stepOrder, log.unreviewedResults])).toEqual([
      [2, used],
      [1, []],
    ]);

    // Once step 1's result is approved, a new run of step 2 uses only approved text.
    expect((await alice.put(`/api/step-results/${idea.id}`, { approved: true })).statusCode).toBe(200);
    const third = await run(steps[1].id);
    expect(third.statusCode).toBe(200);
    expect(runOf(third.json().execution.runs, steps[1].id)).not.toHaveProperty('unreviewedResults');
    logs = (await alice.get(`/api/flows/${flow.id}/logs`)).json() as Log[];
    expect(logs.map((log) => [log.stepOrder, log.unreviewedResults])).toEqual([
      [2, []],
      [2, used],
      [1, []],
    ]);
  });
});
