import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_NOTES_MAX_LENGTH } from '../src/domain/conversation-context';
import { rebuildProjections } from '../src/projections/rebuild';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

describe('AI conversation context', () => {
  let t: TestApp;
  let alice: Client;
  let bob: Client;
  let aliceCookie: string;
  let bobCookie: string;

  /** The test client speaks GET/POST/PUT/DELETE; the notes are changed with PATCH. */
  const patch = (url: string, payload: unknown, cookie = aliceCookie) =>
    t.app.inject({ method: 'PATCH', url, headers: { cookie }, payload: payload as object });

  const oneStepFlow = (name: string) =>
    createFlow(alice, name, [{ name: 'Ideas', systemPrompt: 'List three ideas about tea.' }]);

  async function runFirstStep(flowId: string, stepId: string, userInput?: string) {
    const latest = (await alice.get(`/api/flows/${flowId}/executions/latest`)).json();
    const execution = latest ?? (await alice.post(`/api/flows/${flowId}/execute`)).json();
    const run = await alice.post(
      `/api/executions/${execution.id}/steps/${stepId}/execute`,
      userInput === undefined ? {} : { userInput },
    );
    expect(run.statusCode).toBe(200);
    return {
      executionId: execution.id as string,
      results: run.json().results as { id: string; result: string }[],
    };
  }

  beforeAll(async () => {
    t = await createTestApp();
    aliceCookie = (await signUp(t.app, 'Alice')).cookie;
    alice = as(t.app, aliceCookie);
    bobCookie = (await signUp(t.app, 'Bob')).cookie;
    bob = as(t.app, bobCookie);
  });
  afterAll(() => t.close());

  it('answers an empty context before any notes, then creates and updates the notes', async () => {
    const { flow } = await oneStepFlow('Notes');
    const url = `/api/flows/${flow.id}/context`;
    expect((await alice.get(url)).json()).toEqual({
      id: null,
      flowId: flow.id,
      conversationHistory: '',
      rejectedIdeas: '',
      userNotes: '',
      version: 0,
      lastUpdated: null,
      createdAt: null,
    });

    const created = await alice.post(url, { userNotes: 'Keep it short.' });
    expect(created.statusCode).toBe(201);
    const context = created.json();
    expect(context).toMatchObject({ flowId: flow.id, userNotes: 'Keep it short.', version: 1 });
    expect(context.id).toEqual(expect.any(String));
    expect(Date.parse(context.lastUpdated)).not.toBeNaN();
    expect(Date.parse(context.createdAt)).not.toBeNaN();

    expect((await alice.post(url, { userNotes: 'again' })).statusCode).toBe(409);

    const updated = await patch(url, { userNotes: 'Vietnamese only, please.' });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      id: context.id,
      userNotes: 'Vietnamese only, please.',
      version: 2,
    });
    expect((await alice.get(url)).json()).toMatchObject({
      id: context.id,
      userNotes: 'Vietnamese only, please.',
      version: 2,
      createdAt: context.createdAt,
    });
  });

  it('answers 401 without a session', async () => {
    const { flow } = await oneStepFlow('Signed out');
    const url = `/api/flows/${flow.id}/context`;
    for (const method of ['GET', 'POST', 'PATCH'] as const) {
      const response = await t.app.inject({
        method,
        url,
        ...(method === 'GET' ? {} : { payload: { userNotes: 'x' } }),
      });
      expect(response.statusCode).toBe(401);
    }
  });

  it('refuses bad input with 400, a message and the issues, changing nothing', async () => {
    const { flow } = await oneStepFlow('Bad input');
    const url = `/api/flows/${flow.id}/context`;
    expect((await alice.post(url, { userNotes: 'first' })).statusCode).toBe(201);
    const bad = [
      await alice.post(url, { userNotes: 5 }),
      await alice.post(url, {}),
      await patch(url, { userNotes: 'n'.repeat(USER_NOTES_MAX_LENGTH + 1) }),
      await patch(url, { userNotes: 'ok', version: 7 }),
      await alice.get('/api/flows/not-a-uuid/context'),
      await patch('/api/flows/not-a-uuid/context', { userNotes: 'ok' }),
    ];
    for (const response of bad) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.any(String), issues: expect.any(Array) });
    }
    expect((await alice.get(url)).json()).toMatchObject({ userNotes: 'first', version: 1 });
  });

  it('updates only a context that exists', async () => {
    const { flow } = await oneStepFlow('No context yet');
    const response = await patch(`/api/flows/${flow.id}/context`, { userNotes: 'hello' });
    expect(response.statusCode).toBe(404);
    expect((await alice.get(`/api/flows/${flow.id}/context`)).json()).toMatchObject({ id: null });
  });

  it("gives 404 for another user's flow and leaves its context alone", async () => {
    const { flow } = await oneStepFlow('Private');
    const url = `/api/flows/${flow.id}/context`;
    await alice.post(url, { userNotes: 'mine' });
    for (const response of [
      await bob.get(url),
      await bob.post(url, { userNotes: 'theirs' }),
      await patch(url, { userNotes: 'theirs' }, bobCookie),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    expect((await alice.get(url)).json()).toMatchObject({ userNotes: 'mine', version: 1 });
  });

  it('makes a deleted result a rejected idea, and the next run is told the notes and the idea', async () => {
    const { flow, steps } = await oneStepFlow('Rejected');
    const url = `/api/flows/${flow.id}/context`;
    await alice.post(url, { userNotes: 'Only green teas.' });
    const { executionId, results } = await runFirstStep(flow.id, steps[0].id);
    const rejected = results[0]!;
    expect((await alice.delete(`/api/step-results/${rejected.id}`)).statusCode).toBe(204);

    const context = (await alice.get(url)).json();
    expect(context.rejectedIdeas).toBe(`### Step 1 · Branch 1\n${rejected.result.trim()}`);

    await runFirstStep(flow.id, steps[0].id);
    const [latestLog] = (await alice.get(`/api/flows/${flow.id}/logs`)).json();
    expect(latestLog.finalPrompt).toContain('## User notes\nOnly green teas.');
    expect(latestLog.finalPrompt).toContain(
      `## Rejected ideas (do not repeat)\n### Step 1 · Branch 1\n${rejected.result.trim()}`,
    );
    const { events } = await t.store.readStream(`execution-${executionId}`);
    const starts = events.filter((e) => e.type === 'StepRunStarted');
    expect(starts).toHaveLength(2);
    const [first, second] = starts.map((e) => (e.data as { finalPrompt: string }).finalPrompt);
    expect(first).not.toContain('Rejected ideas');
    expect(second).toBe(latestLog.finalPrompt);
  });

  it('bounds what deleted results add to a prompt, and clears them when asked', async () => {
    const { flow, steps } = await oneStepFlow('Bricked');
    // Three results of 340,000 characters deleted: told whole, they alone would pass MAX_PROMPT_CHARS.
    for (let i = 0; i < 3; i++) {
      const { results } = await runFirstStep(flow.id, steps[0].id);
      const edited = await alice.put(`/api/step-results/${results[0]!.id}`, {
        result: `${i}`.repeat(340_000),
      });
      expect(edited.statusCode).toBe(200);
      expect((await alice.delete(`/api/step-results/${results[0]!.id}`)).statusCode).toBe(204);
    }
    await runFirstStep(flow.id, steps[0].id);
    const [told] = (await alice.get(`/api/flows/${flow.id}/logs`)).json();
    expect(told.finalPrompt.length).toBeLessThan(30_000);
    expect(told.finalPrompt).toContain(
      `## Rejected ideas (do not repeat)\n### Step 1 · Branch 1\n${'0'.repeat(2_000)}…`,
    );

    // Another user's flow is not theirs to clear; the owner's clear leaves the ideas out from then on.
    const url = `/api/flows/${flow.id}/context/rejected-ideas`;
    expect((await bob.delete(url)).statusCode).toBe(404);
    expect((await alice.delete(url)).statusCode).toBe(204);
    expect((await alice.get(`/api/flows/${flow.id}/context`)).json().rejectedIdeas).toBe('');
    await runFirstStep(flow.id, steps[0].id);
    const [after] = (await alice.get(`/api/flows/${flow.id}/logs`)).json();
    expect(after.finalPrompt).not.toContain('Rejected ideas');
    // A result deleted after the clear is a rejected idea again.
    const { results } = await runFirstStep(flow.id, steps[0].id);
    await alice.delete(`/api/step-results/${results[0]!.id}`);
    expect((await alice.get(`/api/flows/${flow.id}/context`)).json().rejectedIdeas).toContain(
      results[0]!.result.trim(),
    );
  });

  it('lists rejected ideas oldest first, across the executions of the flow', async () => {
    const { flow, steps } = await oneStepFlow('Several');
    const deleted: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { results } = await runFirstStep(flow.id, steps[0].id, `round ${i}`);
      await alice.delete(`/api/step-results/${results[0]!.id}`);
      deleted.push(results[0]!.result.trim());
    }
    await alice.post(`/api/flows/${flow.id}/execute`);
    const { results } = await runFirstStep(flow.id, steps[0].id);
    await alice.delete(`/api/step-results/${results[0]!.id}`);
    deleted.push(results[0]!.result.trim());

    const { rejectedIdeas } = (await alice.get(`/api/flows/${flow.id}/context`)).json();
    expect(rejectedIdeas).toBe(deleted.map((content) => `### Step 1 · Branch 1\n${content}`).join('\n\n'));
  });

  it("builds the conversation from the flow's successful runs; clearing the logs starts a new one", async () => {
    const { flow, steps } = await createFlow(alice, 'Chat', [
      { name: 'Ideas', systemPrompt: 'List three ideas about tea.' },
      { name: 'Draft', systemPrompt: 'Write a post from [[step-1]]' },
    ]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const answers: string[] = [];
    for (const [step, userInput] of [
      [steps[0], 'about oolong'],
      [steps[1], ''],
    ] as const) {
      const run = await alice.post(`/api/executions/${execution.id}/steps/${step.id}/execute`, { userInput });
      answers.push(run.json().results[0].result.trim());
    }
    const url = `/api/flows/${flow.id}/context`;
    const context = (await alice.get(url)).json();
    expect(context.conversationHistory).toBe(
      `### Step 1: Ideas\nUser: about oolong\nAI: ${answers[0]}\n\n` +
        `### Step 2: Draft\nUser: Run mode execution - no additional input\nAI: ${answers[1]}`,
    );
    expect(context.id).toBeNull();
    expect(Date.parse(context.lastUpdated)).not.toBeNaN();

    const [stepResult] = (await alice.get(`/api/executions/${execution.id}`)).json().results;
    await alice.delete(`/api/step-results/${stepResult.id}`);
    await alice.delete(`/api/flows/${flow.id}/logs`);
    const cleared = (await alice.get(url)).json();
    expect(cleared.conversationHistory).toBe('');
    expect(cleared.rejectedIdeas).toContain(stepResult.result.trim());
  });

  it('rebuild reproduces the rejected ideas row for row', async () => {
    const inline = await t.db.sql`SELECT * FROM rejected_ideas ORDER BY id`;
    expect(inline.length).toBeGreaterThanOrEqual(5);
    for (const row of inline) expect(row).toMatchObject({ stepOrder: expect.any(Number), label: 'Branch 1' });
    await rebuildProjections(t.db.sql, t.store, 5);
    expect(await t.db.sql`SELECT * FROM rejected_ideas ORDER BY id`).toEqual(inline);
  });
});
