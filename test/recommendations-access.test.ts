import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecommendationRecord } from '../src/domain/workflow-recommendations';
import { createFlow, createTestApp, type TestApp } from './support/test-app';
import { join, newWorkspace, ok, type Person, person } from './support/workspace-people';

/** What recommendations of a workspace flow would show of it: its id, its name, its prompts, its results. */
const HARBOUR = {
  name: 'Harbour launch',
  research: 'List the tides of the Harbour pilots for the launch.',
  memo: 'Write the Harbour memo for the pilots from [[step-1]].',
  edits: ['Harbour memo, first rewrite.', 'Harbour memo, second rewrite for the pilots.'],
};

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
  let harbour: { id: string };
  let diary: { id: string };
  let whileMember: { count: number; recommendations: RecommendationRecord[] };

  /** Each way the workspace flow could show in what `mai` gets. */
  const traces = () => [harbour.id, HARBOUR.name, HARBOUR.research, HARBOUR.memo, ...HARBOUR.edits];

  beforeAll(async () => {
    t = await createTestApp();
    owner = await person(t.app, 'Owner');
    mai = await person(t.app, 'Mai');
    ({ id: workspaceId } = await newWorkspace(owner, 'Harbour team'));
    await join(owner, workspaceId, mai, 'editor');

    // Mai makes the workspace flow, so its rows carry her id as well as the workspace's.
    harbour = ok(
      await mai.client.post('/api/flows', { name: HARBOUR.name, description: 'Tides and memo', workspaceId }),
      201,
    );
    const research = ok(
      await mai.client.post('/api/steps', {
        flowId: harbour.id,
        order: 1,
        name: 'Research',
        systemPrompt: HARBOUR.research,
      }),
      201,
    );
    const memo = ok(
      await mai.client.post('/api/steps', {
        flowId: harbour.id,
        order: 2,
        name: 'Memo',
        systemPrompt: HARBOUR.memo,
      }),
      201,
    );
    diary = (await createFlow(mai.client, 'Diary', [{ name: 'Entry', systemPrompt: 'Write a diary entry.' }]))
      .flow;

    const execution = ok(await mai.client.post(`/api/flows/${harbour.id}/execute`), 201);
    const run = async (stepId: string) =>
      ok(await mai.client.post(`/api/executions/${execution.id}/steps/${stepId}/execute`, {})).results as {
        id: string;
      }[];
    // The research step asked again twice (a rerun pattern), the memo rewritten twice (a rework pattern).
    for (let i = 0; i < 3; i++) await run(research.id);
    const [written] = await run(memo.id);
    for (const result of HARBOUR.edits)
      ok(await mai.client.put(`/api/step-results/${written!.id}`, { result }));

    whileMember = await generate(mai);
  });
  afterAll(() => t.close());

  it('gives a member recommendations from the workspace flow they made, ran and edited', () => {
    const text = JSON.stringify(whileMember.recommendations);
    expect(whileMember.recommendations.map((r) => r.baseFlowId)).toContain(harbour.id);
    expect(text).toContain(HARBOUR.name);
    expect(text).toContain(HARBOUR.memo);
    expect(text).toContain(HARBOUR.edits[1]);
  });

  it('gives them nothing of that flow once they are removed from the workspace, their own flows still', async () => {
    const removed = await owner.client.delete(`/api/workspaces/${workspaceId}/members/${mai.id}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await mai.client.get(`/api/flows/${harbour.id}`)).statusCode).toBe(404);

    const after = await generate(mai);
    expect(after.recommendations.map((r) => r.baseFlowId)).toContain(diary.id);
    const listed = ok(await mai.client.get('/api/recommendations')) as RecommendationRecord[];
    expect(listed.map((r) => r.id).sort()).toEqual(after.recommendations.map((r) => r.id).sort());
    for (const text of [JSON.stringify(after), JSON.stringify(listed)]) {
      for (const trace of traces()) expect(text).not.toContain(trace);
    }
  });
});
