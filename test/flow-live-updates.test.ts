import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

interface Pushed {
  type: string;
  flowId?: string;
  executionId?: string;
  position?: number;
  message?: string;
  event?: { type: string };
}

async function openSocket(base: string, cookie: string) {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/ws`, { headers: { cookie, origin: base } });
  const messages: Pushed[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(String(raw))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, messages };
}

/** A flow's watchers hear of its changes and of each execution of it that starts, and only its owner may watch. */
describe('watching a flow over /api/ws', () => {
  let t: TestApp;
  let base: string;
  let owner: Client;
  let ownerCookie: string;
  let otherCookie: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ownerCookie = (await signUp(t.app, 'Lan')).cookie;
    owner = as(t.app, ownerCookie);
    otherCookie = (await signUp(t.app, 'Minh')).cookie;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('pushes the flow’s events from now, and the start of each of its executions', async () => {
    const {
      flow,
      steps: [step],
    } = await createFlow(owner, 'Watched', [{ name: 'Ideas', systemPrompt: 'Tea' }]);
    const watcher = await openSocket(base, ownerCookie);
    watcher.socket.send(JSON.stringify({ type: 'subscribe', flowId: flow.id }));
    await expect.poll(() => watcher.messages.some((m) => m.type === 'up-to-date')).toBe(true);
    // From now: the flow's creation and its first step are versions, not news.
    expect(watcher.messages.filter((m) => m.type === 'event')).toEqual([]);
    const upToDate = watcher.messages.find((m) => m.type === 'up-to-date')!;
    expect(upToDate).toMatchObject({ flowId: flow.id, position: 2 });

    await owner.put(`/api/steps/${step!.id}`, { name: 'Ideas, renamed' });
    await expect
      .poll(() => watcher.messages.find((m) => m.type === 'event'))
      .toMatchObject({ flowId: flow.id, position: 3, event: { type: 'StepEdited' } });

    const execution = (await owner.post(`/api/flows/${flow.id}/execute`)).json();
    await expect
      .poll(() => watcher.messages.find((m) => m.type === 'execution-started'))
      .toEqual({ type: 'execution-started', flowId: flow.id, executionId: execution.id });
    watcher.socket.close();
  });

  it('refuses another user’s flow', async () => {
    const { flow } = await createFlow(owner, 'Private', []);
    const stranger = await openSocket(base, otherCookie);
    stranger.socket.send(JSON.stringify({ type: 'subscribe', flowId: flow.id }));
    await expect
      .poll(() => stranger.messages.find((m) => m.type === 'error'))
      .toEqual({ type: 'error', flowId: flow.id, message: 'Không tìm thấy flow' });
    await owner.put(`/api/flows/${flow.id}`, { name: 'Private 2' });
    await owner.post(`/api/flows/${flow.id}/execute`);
    // The owner's own socket, subscribed after those, proves they were pushed by then; the stranger got none.
    const mine = await openSocket(base, ownerCookie);
    mine.socket.send(JSON.stringify({ type: 'subscribe', flowId: flow.id, after: 0 }));
    await expect.poll(() => mine.messages.some((m) => m.type === 'up-to-date')).toBe(true);
    expect(mine.messages.filter((m) => m.type === 'event').length).toBeGreaterThan(0);
    expect(stranger.messages.filter((m) => m.type !== 'error')).toEqual([]);
    stranger.socket.close();
    mine.socket.close();
  });
});
