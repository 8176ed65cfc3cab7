import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

const NAME_REQUIRED = 'Tên session không được để trống';

describe('saved sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const newUser = async (name = 'An') => as(t.app, (await signUp(t.app, name)).cookie);

  /** A one-step flow and, when asked, an execution of it. */
  async function flowWithExecution(client: Client, name: string, execute = true) {
    const { flow } = await createFlow(client, name, [{ name: 'Write', systemPrompt: 'Write one line' }]);
    const execution = execute ? (await client.post(`/api/flows/${flow.id}/execute`)).json() : null;
    return { flowId: flow.id as string, executionId: (execution?.id ?? null) as string | null };
  }

  const create = (client: Client, body: Record<string, unknown>) =>
    client.post('/api/user-sessions', { flowId: '', executionId: '', ...body });

  it('creates a session of what the user works on now, lists it and loads it into that flow', async () => {
    const client = await newUser();
    await flowWithExecution(client, 'Older');
    const current = await flowWithExecution(client, 'Current');

    const created = await create(client, {
      sessionName: ' Buổi sáng ',
      sessionData: { description: 'Bài về trà' },
    });
    expect(created.statusCode).toBe(201);
    const session = created.json();
    expect(session).toMatchObject({
      sessionName: 'Buổi sáng',
      flowId: current.flowId,
      executionId: current.executionId,
      flowName: 'Current',
      sessionData: { description: 'Bài về trà', mode: 'run' },
    });
    expect(typeof session.id).toBe('string');
    expect(Number.isNaN(Date.parse(session.lastActiveAt))).toBe(false);

    const list = (await client.get('/api/user-sessions')).json();
    expect(list.map((s: { id: string }) => s.id)).toEqual([session.id]);

    const loaded = await client.post(`/api/user-sessions/${session.id}/load`);
    expect(loaded.statusCode).toBe(200);
    expect(loaded.json()).toEqual({
      url: `/flows/${current.flowId}?mode=run`,
      flowId: current.flowId,
      executionId: current.executionId,
    });
    // The page reloads into that URL; the workspace there shows this execution.
    const latest = (await client.get(`/api/flows/${current.flowId}/executions/latest`)).json();
    expect(latest.id).toBe(current.executionId);
  });

  it('keeps a flow chosen in the dialog with its latest execution, and a chosen mode', async () => {
    const client = await newUser();
    const chosen = await flowWithExecution(client, 'Chosen');
    await flowWithExecution(client, 'Later');

    const session = (
      await create(client, { flowId: chosen.flowId, sessionName: 'Chọn', sessionData: { mode: 'chat' } })
    ).json();
    expect(session).toMatchObject({ flowId: chosen.flowId, executionId: chosen.executionId });
    expect(session.sessionData).toEqual({ mode: 'chat' });
    expect((await client.post(`/api/user-sessions/${session.id}/load`)).json().url).toBe(
      `/flows/${chosen.flowId}?mode=chat`,
    );
  });

  it('opens the editor of a flow without an execution, and the flows list when there is nothing', async () => {
    const empty = await newUser();
    const nothing = (await create(empty, { sessionName: 'Trống' })).json();
    expect(nothing).toMatchObject({ flowId: null, executionId: null, flowName: null });
    expect((await empty.post(`/api/user-sessions/${nothing.id}/load`)).json()).toEqual({
      url: '/flows',
      flowId: null,
      executionId: null,
    });

    const editing = await newUser();
    const draft = await flowWithExecution(editing, 'Draft', false);
    const session = (await create(editing, { sessionName: 'Soạn' })).json();
    expect(session).toMatchObject({ flowId: draft.flowId, executionId: null, sessionData: { mode: 'edit' } });
    expect((await editing.post(`/api/user-sessions/${session.id}/load`)).json().url).toBe(
      `/flows/${draft.flowId}`,
    );

    // Its flow deleted since, a session loads into the flows list.
    await editing.delete(`/api/flows/${draft.flowId}`);
    expect((await editing.post(`/api/user-sessions/${session.id}/load`)).json()).toEqual({
      url: '/flows',
      flowId: null,
      executionId: null,
    });
  });

  it('marks a loaded session active, so it comes first in the list', async () => {
    const client = await newUser();
    const first = (await create(client, { sessionName: 'Một' })).json();
    const second = (await create(client, { sessionName: 'Hai' })).json();
    const order = async () =>
      (await client.get('/api/user-sessions')).json().map((s: { sessionName: string }) => s.sessionName);
    expect(await order()).toEqual(['Hai', 'Một']);

    await client.post(`/api/user-sessions/${first.id}/load`);
    expect(await order()).toEqual(['Một', 'Hai']);
    const reloaded = (await client.get('/api/user-sessions')).json()[0];
    expect(Date.parse(reloaded.lastActiveAt)).toBeGreaterThan(Date.parse(second.lastActiveAt));
  });

  it('refuses a blank name with the exact message', async () => {
    const client = await newUser();
    for (const sessionName of ['', '   ', undefined]) {
      const response = await create(client, { sessionName, sessionData: { description: 'x' } });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(NAME_REQUIRED);
      expect(response.json().issues).toBeDefined();
    }
    expect((await create(client, { sessionName: 'x', flowId: 'not-a-uuid' })).statusCode).toBe(400);
    expect((await client.get('/api/user-sessions')).json()).toEqual([]);
  });

  it('deletes a session', async () => {
    const client = await newUser();
    const session = (await create(client, { sessionName: 'Xoá' })).json();
    expect((await client.delete(`/api/user-sessions/${session.id}`)).statusCode).toBe(204);
    expect((await client.get('/api/user-sessions')).json()).toEqual([]);
    expect((await client.delete(`/api/user-sessions/${session.id}`)).statusCode).toBe(404);
    expect((await client.post(`/api/user-sessions/${session.id}/load`)).statusCode).toBe(404);
  });

  it("answers 404 for another user's sessions, flows and executions", async () => {
    const owner = await newUser('Owner');
    const other = await newUser('Other');
    const place = await flowWithExecution(owner, 'Private');
    const session = (await create(owner, { sessionName: 'Riêng' })).json();

    expect((await other.get('/api/user-sessions')).json()).toEqual([]);
    expect((await other.post(`/api/user-sessions/${session.id}/load`)).statusCode).toBe(404);
    expect((await other.delete(`/api/user-sessions/${session.id}`)).statusCode).toBe(404);
    expect((await create(other, { sessionName: 'x', flowId: place.flowId })).statusCode).toBe(404);
    expect((await create(other, { sessionName: 'x', executionId: place.executionId })).statusCode).toBe(404);

    // Untouched for its owner.
    expect((await owner.get('/api/user-sessions')).json()).toHaveLength(1);
    const own = await create(owner, { sessionName: 'y', executionId: place.executionId });
    expect(own.json()).toMatchObject({ flowId: place.flowId, executionId: place.executionId });
  });

  it('answers 401 when signed out', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/user-sessions' })).statusCode).toBe(401);
  });
});
