import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecommendationRecord } from '../src/domain/workflow-recommendations';
import { createFlow, createTestApp, type TestApp } from './support/test-app';
import { join, newWorkspace, ok, type Person, person } from './support/workspace-people';

/** A flow Mai makes, runs and edits in the workspace, and leaves there. */
const HARBOUR = {
  name: 'Harbour launch',
  research: 'List the tides of the Harbour pilots for the launch.',
  memo: 'Write the Harbour memo for the pilots from [[step-1]].',
  edits: ['Harbour memo, first rewrite.', 'Harbour memo, second rewrite for the pilots.'],
};

/**
 * A flow Mai makes in the workspace, runs and edits there, then takes back to her own flows: the flow is
 * hers again, its executions stay the workspace's (and their results with them).
 */
const QUAY = {
  name: 'Quay notes',
  edits: ['Quay answer, first rewrite.', 'Quay answer, second rewrite for the crew.'],
};

type Made = { id: string; steps: { id: string }[] };

async function generate(who: Person) {
  return ok(await who.client.post('/api/recommendations/generate'), 201) as {
    count: number;
    recommendations: RecommendationRecord[];
  };
}

describe('recommendations of a member removed from a workspace', () => {
  let t: TestApp;
  let owner: Person;
  let mai: Person;
  let workspaceId: string;
  let harbour: Made;
  let quay: Made;
  let diary: { id: string };
  let whileMember: { count: number; recommendations: RecommendationRecord[] };

  /** Each way the workspace's flow could show in what Mai gets: its id, name, prompts and results. */
  const traces = () => [harbour.id, HARBOUR.name, HARBOUR.research, HARBOUR.memo, ...HARBOUR.edits];

  /** A flow Mai makes in the workspace, with its steps (name, prompt). */
  async function workspaceFlow(name: string, steps: [string, string][]): Promise<Made> {
    const flow = ok(await mai.client.post('/api/flows', { name, description: name, workspaceId }), 201);
    const made = [];
    for (const [i, [stepName, systemPrompt]] of steps.entries()) {
      const body = { flowId: flow.id, order: i + 1, name: stepName, systemPrompt };
      made.push(ok(await mai.client.post('/api/steps', body), 201));
    }
    return { id: flow.id, steps: made };
  }

  /** The first step asked again twice (a rerun pattern), the second's result rewritten (a rework pattern). */
  async function runAndEdit(flow: Made, edits: string[]) {
    const execution = ok(await mai.client.post(`/api/flows/${flow.id}/execute`), 201);
    const run = async (stepId: string) =>
      ok(await mai.client.post(`/api/executions/${execution.id}/steps/${stepId}/execute`, {})).results as {
        id: string;
      }[];
    for (let i = 0; i < 3; i++) await run(flow.steps[0]!.id);
    const [written] = await run(flow.steps[1]!.id);
    for (const result of edits) ok(await mai.client.put(`/api/step-results/${written!.id}`, { result }));
  }

  beforeAll(async () => {
    t = await createTestApp();
    owner = await person(t.app, 'Owner');
    mai = await person(t.app, 'Mai');
    ({ id: workspaceId } = await newWorkspace(owner, 'Harbour team'));
    await join(owner, workspaceId, mai, 'editor');

    // Mai makes the workspace flows, so their rows carry her id as well as the workspace's.
    harbour = await workspaceFlow(HARBOUR.name, [
      ['Research', HARBOUR.research],
      ['Memo', HARBOUR.memo],
    ]);
    quay = await workspaceFlow(QUAY.name, [
      ['Ask', 'Ask the crew about the quay.'],
      ['Answer', 'Answer the crew from [[step-1]].'],
    ]);
    diary = (await createFlow(mai.client, 'Diary', [{ name: 'Entry', systemPrompt: 'Write a diary entry.' }]))
      .flow;
    await runAndEdit(harbour, HARBOUR.edits);
    await runAndEdit(quay, QUAY.edits);

    whileMember = await generate(mai);
  });
  afterAll(() => t.close());

  it('gives a member recommendations from the workspace flows they made, ran and edited', () => {
    const text = JSON.stringify(whileMember.recommendations);
    expect(whileMember.recommendations.map((r) => r.baseFlowId)).toContain(harbour.id);
    expect(text).toContain(HARBOUR.name);
    expect(text).toContain(HARBOUR.memo);
    expect(text).toContain(HARBOUR.edits[1]);
    expect(text).toContain(QUAY.edits[1]);
  });

  it("gives them nothing of the workspace's flows or executions once removed from it, their own flows still", async () => {
    ok(await mai.client.post(`/api/flows/${quay.id}/move`, { workspaceId: null }));
    const removed = await owner.client.delete(`/api/workspaces/${workspaceId}/members/${mai.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await mai.client.get(`/api/flows/${harbour.id}`)).statusCode).toBe(404);

    const after = await generate(mai);
    expect(after.recommendations.map((r) => r.baseFlowId)).toContain(diary.id);
    const listed = ok(await mai.client.get('/api/recommendations')) as RecommendationRecord[];
    expect(listed.map((r) => r.id).sort()).toEqual(after.recommendations.map((r) => r.id).sort());
    // The flow taken back is hers and shows; what she did with it in the workspace does not.
    expect(JSON.stringify(after)).toContain(QUAY.name);
    for (const text of [JSON.stringify(after), JSON.stringify(listed)]) {
      for (const trace of [...traces(), ...QUAY.edits]) expect(text).not.toContain(trace);
    }
  });
});
