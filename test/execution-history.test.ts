import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AT_REFUSED } from '../src/api/executions/history-routes';
import { PAGE_LIMIT_REFUSED } from '../src/api/http/pages';
import { decider } from '../src/domain/execution/decider';
import type { ExecutionEvent, ExecutionState } from '../src/domain/execution/types';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

interface HistoryEvent {
  position: number;
  type: string;
  data: unknown;
  at: string;
  actor: { userId: string | null; name: string | null };
  commandId: string | null;
}

describe('execution history: events and the state at any point', () => {
  let t: TestApp;
  let alice: Client;
  let aliceId: string;
  let bob: Client;
  let flowId: string;
  let executionId: string;
  let all: HistoryEvent[];

  beforeAll(async () => {
    t = await createTestApp();
    const signedUp = await signUp(t.app, 'An');
    alice = as(t.app, signedUp.cookie);
    aliceId = signedUp.user.id;
    bob = as(t.app, (await signUp(t.app, 'Bình')).cookie);

    // A run worth auditing: three steps run, a result approved and edited, a reset, a step run again.
    const { flow, steps } = await createFlow(alice, 'Audit', [
      { name: 'Ideas', systemPrompt: 'Three ideas about tea.' },
      { name: 'Draft', systemPrompt: 'A paragraph on [[step-1]].' },
      { name: 'Title', systemPrompt: 'A title for [[step-2]].' },
    ]);
    flowId = flow.id;
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    executionId = execution.id;
    const run = (stepId: string, userInput: string, key?: string) =>
      alice.post(
        `/api/executions/${executionId}/steps/${stepId}/execute`,
        { userInput },
        key ? { 'idempotency-key': key } : {},
      );
    expect((await run(steps[0].id, 'about green tea', 'run-ideas-1')).statusCode).toBe(200);
    const draft = (await run(steps[1].id, '')).json().results[0];
    expect((await run(steps[2].id, '')).statusCode).toBe(200);
    expect((await alice.put(`/api/step-results/${draft.id}`, { approved: true })).statusCode).toBe(200);
    const edited = await alice.put(`/api/step-results/${draft.id}`, { result: 'An edited paragraph.' });
    expect(edited.statusCode).toBe(200);
    expect((await alice.post(`/api/executions/${executionId}/reset`, {})).statusCode).toBe(200);
    expect((await run(steps[0].id, 'about oolong')).statusCode).toBe(200);

    const response = await alice.get(`/api/executions/${executionId}/events?limit=200`);
    expect(response.statusCode).toBe(200);
    all = response.json().items;
  });
  afterAll(() => t.close());

  it('lists every event in order with its type, data, time, actor and command id', () => {
    expect(all.map((e) => e.position)).toEqual(all.map((_, i) => i + 1));
    expect(all.map((e) => e.type)).toEqual([
      'ExecutionStarted',
      'StepRunStarted',
      'StepRunSucceeded',
      'StepRunStarted',
      'StepRunSucceeded',
      'StepRunStarted',
      'StepRunSucceeded',
      'ExecutionCompleted',
      'ResultApproved',
      'ResultEdited',
      'ExecutionReset',
      'StepRunStarted',
      'StepRunSucceeded',
    ]);
    for (const event of all) {
      expect(event.actor).toEqual({ userId: aliceId, name: 'An' });
      expect(event.commandId).toEqual(expect.any(String));
      expect(Number.isNaN(Date.parse(event.at))).toBe(false);
    }
    // The client's Idempotency-Key is the command id of what it caused.
    expect(all[1]).toMatchObject({ type: 'StepRunStarted', commandId: 'run-ideas-1' });
    expect(all[1]!.data).toMatchObject({ userInput: 'about green tea', keySource: 'offline' });
    expect(all[9]!.data).toMatchObject({ after: 'An edited paragraph.' });
  });

  it('pages with cursor and limit, nextCursor leading on until the end', async () => {
    const pages: HistoryEvent[][] = [];
    let cursor: string | null = null;
    do {
      const from: string = cursor === null ? '' : `&cursor=${cursor}`;
      const response = await alice.get(`/api/executions/${executionId}/events?limit=4${from}`);
      expect(response.statusCode).toBe(200);
      const page: { items: HistoryEvent[]; nextCursor: string | null } = response.json();
      pages.push(page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(pages.map((p) => p.length)).toEqual([4, 4, 4, 1]);
    expect(pages.flat()).toEqual(all);

    // The default page is 100 events; a page that reaches the end exactly says so.
    const whole = (await alice.get(`/api/executions/${executionId}/events`)).json();
    expect(whole).toEqual({ items: all, nextCursor: null });
    const exact = (await alice.get(`/api/executions/${executionId}/events?limit=${all.length}`)).json();
    expect(exact.nextCursor).toBeNull();
  });

  it('answers 404 for another user, or an execution that does not exist', async () => {
    for (const path of ['events', 'state', 'state?at=2']) {
      const response = await bob.get(`/api/executions/${executionId}/${path}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: 'Không tìm thấy execution' });
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await alice.get(`/api/executions/${missing}/events`)).statusCode).toBe(404);
    expect((await alice.get(`/api/executions/${missing}/state`)).statusCode).toBe(404);
    expect((await bob.get(`/api/flows/${flowId}/executions`)).statusCode).toBe(404);
  });

  it('refuses a bad query with 400 and the issues', async () => {
    const bad = {
      'events?limit=0': `limit: ${PAGE_LIMIT_REFUSED}`,
      'events?limit=201': `limit: ${PAGE_LIMIT_REFUSED}`,
      'events?limit=ten': `limit: ${PAGE_LIMIT_REFUSED}`,
      'events?limit=1&limit=2': `limit: ${PAGE_LIMIT_REFUSED}`,
      'state?at=0': `at: ${AT_REFUSED}`,
      'state?at=later': `at: ${AT_REFUSED}`,
      'state?at=1&at=2': `at: ${AT_REFUSED}`,
    };
    for (const [path, message] of Object.entries(bad)) {
      const response = await alice.get(`/api/executions/${executionId}/${path}`);
      expect(response.statusCode, path).toBe(400);
      expect(response.json(), path).toMatchObject({ message, issues: expect.any(Array) });
    }
    expect((await alice.get('/api/executions/not-a-uuid/events')).statusCode).toBe(400);
  });

  it('gives at every position the state of folding that many events, and the end past it', async () => {
    const events = all.map((e) => ({ type: e.type, data: e.data }) as ExecutionEvent);
    let folded: ExecutionState = decider.initialState();
    for (const [i, event] of events.entries()) {
      folded = decider.evolve(folded, event);
      const response = await alice.get(`/api/executions/${executionId}/state?at=${i + 1}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...folded, version: i + 1, unreadable: [] });
    }
    const end = (await alice.get(`/api/executions/${executionId}/state`)).json();
    expect(end).toEqual({ ...folded, version: all.length, unreadable: [] });
    expect((await alice.get(`/api/executions/${executionId}/state?at=9999`)).json()).toEqual(end);

    // The end agrees with the read model the run screen polls.
    const view = (await alice.get(`/api/executions/${executionId}`)).json();
    expect(end.version).toBe(view.version);
    expect(end.executionCache).toEqual(view.executionCache);
    const essentials = (results: ExecutionState['results']) =>
      results
        .map(({ id, label, result, approved, stepId }) => ({ id, label, result, approved, stepId }))
        // The read model lists results by step, the fold by time.
        .toSorted((a, b) => a.id.localeCompare(b.id));
    expect(essentials(end.results)).toEqual(essentials(view.results));

    // Nothing disappears: before the reset the first run's results, after it the same plus the new run.
    const beforeReset = (await alice.get(`/api/executions/${executionId}/state?at=10`)).json();
    expect(beforeReset.status).toBe('completed');
    expect(beforeReset.results).toHaveLength(3);
    const afterReset = (await alice.get(`/api/executions/${executionId}/state?at=11`)).json();
    expect(afterReset.status).toBe('running');
    expect(afterReset.currentStep).toBe(1);
    expect(afterReset.results).toEqual(beforeReset.results);
    expect(end.results).toHaveLength(4);
  });

  it('folds the log alone: a changed read model does not change the state', async () => {
    const before = (await alice.get(`/api/executions/${executionId}/state`)).json();
    const changed = await t.db.sql`
      UPDATE step_results SET result = 'tampered', approved = NOT approved
      WHERE execution_id = ${executionId} RETURNING id`;
    expect(changed.length).toBe(4);
    await t.db.sql`UPDATE executions SET status = 'stopped', current_step = 3 WHERE id = ${executionId}`;
    const after = (await alice.get(`/api/executions/${executionId}/state`)).json();
    expect(after).toEqual(before);
    expect(after.results.map((r: { result: string }) => r.result)).not.toContain('tampered');
  });

  it('lists the flow executions newest first', async () => {
    const second = (await alice.post(`/api/flows/${flowId}/execute`)).json();
    const response = await alice.get(`/api/flows/${flowId}/executions`);
    expect(response.statusCode).toBe(200);
    const list = response.json();
    expect(list.map((e: { id: string }) => e.id)).toEqual([second.id, executionId]);
    expect(list[0]).toEqual({ id: second.id, status: 'waiting', startedAt: expect.any(String) });
    expect(Date.parse(list[0].startedAt)).toBeGreaterThanOrEqual(Date.parse(list[1].startedAt));
  });
});
