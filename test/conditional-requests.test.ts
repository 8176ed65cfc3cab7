import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** inject() as one user, with the request headers given (If-Match, If-None-Match). */
function client(app: FastifyInstance, cookie: string) {
  return (method: Method, url: string, headers: Record<string, string> = {}, payload?: object) =>
    app.inject({ method, url, headers: { cookie, ...headers }, ...(payload ? { payload } : {}) });
}
type Call = ReturnType<typeof client>;

const mismatch = (currentVersion: number) => ({
  status: 412,
  code: 'version_mismatch',
  currentVersion,
  message: expect.stringMatching(/version/),
});

describe('conditional requests on a flow, its steps and its executions', () => {
  let t: TestApp;
  let owner: Client;
  let lan: Call;
  let mai: Call;
  let flowId: string;
  let stepIds: string[];

  beforeAll(async () => {
    t = await createTestApp();
    const { cookie } = await signUp(t.app, 'Lan');
    owner = as(t.app, cookie);
    lan = client(t.app, cookie);
    mai = client(t.app, (await signUp(t.app, 'Mai')).cookie);
  });
  afterAll(() => t.close());

  /** A fresh flow of Lan's with two steps, so each test starts from versions of its own. */
  async function freshFlow() {
    const made = await createFlow(owner, 'Tea', [
      { name: 'Ideas', systemPrompt: 'List three ideas about tea.' },
      { name: 'Pick', systemPrompt: 'Pick the best of [[step-1]].' },
    ]);
    flowId = made.flow.id;
    stepIds = made.steps.map((step: { id: string }) => step.id);
  }

  const tagOf = async (url: string) => {
    const answer = await lan('GET', url);
    expect(answer.statusCode).toBe(200);
    return answer.headers.etag as string;
  };

  it('tags a flow, its steps and an execution with their stream version', async () => {
    await freshFlow();
    // Created, then two steps added: version 3, and the steps carry their flow's version.
    const flow = await lan('GET', `/api/flows/${flowId}`);
    expect(flow.headers.etag).toBe('"3"');
    expect((await lan('GET', `/api/flows/${flowId}/steps`)).headers.etag).toBe('"3"');

    const started = await lan('POST', `/api/flows/${flowId}/execute`);
    const executionId = started.json().id;
    const execution = await lan('GET', `/api/executions/${executionId}`);
    expect(execution.headers.etag).toBe(`"${execution.json().version}"`);
  });

  it('answers 304 without a body while If-None-Match names the current tag, 200 with a new tag after a change', async () => {
    await freshFlow();
    const tag = await tagOf(`/api/flows/${flowId}`);
    for (const ifNoneMatch of [tag, `"0", ${tag}`, `W/${tag}`, '*']) {
      const same = await lan('GET', `/api/flows/${flowId}`, { 'if-none-match': ifNoneMatch });
      expect(same.statusCode, ifNoneMatch).toBe(304);
      expect(same.body).toBe('');
      expect(same.headers.etag).toBe(tag);
    }
    const steps = await lan('GET', `/api/flows/${flowId}/steps`, { 'if-none-match': tag });
    expect(steps.statusCode).toBe(304);
    expect(steps.body).toBe('');

    await lan('PUT', `/api/flows/${flowId}`, {}, { name: 'Green tea' });
    const changed = await lan('GET', `/api/flows/${flowId}`, { 'if-none-match': tag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Green tea' });
    expect(changed.headers.etag).not.toBe(tag);
    expect((await lan('GET', `/api/flows/${flowId}/steps`, { 'if-none-match': tag })).statusCode).toBe(200);
  });

  it('answers 304 to a poll of an unchanged execution', async () => {
    await freshFlow();
    const executionId = (await lan('POST', `/api/flows/${flowId}/execute`)).json().id;
    const tag = await tagOf(`/api/executions/${executionId}`);
    const polled = await lan('GET', `/api/executions/${executionId}`, { 'if-none-match': tag });
    expect(polled.statusCode).toBe(304);
    expect(polled.body).toBe('');
    await lan('POST', `/api/executions/${executionId}/stop`);
    const after = await lan('GET', `/api/executions/${executionId}`, { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).toBe(`"${after.json().version}"`);
    expect(after.headers.etag).not.toBe(tag);
  });

  it('refuses a write on an old version with 412, the current version, and no change', async () => {
    await freshFlow();
    const old = await tagOf(`/api/flows/${flowId}`);
    await lan('PUT', `/api/flows/${flowId}`, {}, { name: 'Changed elsewhere' });
    const current = await tagOf(`/api/flows/${flowId}`);
    const currentVersion = Number(JSON.parse(current));

    const writes = [
      lan('PUT', `/api/flows/${flowId}`, { 'if-match': old }, { name: 'Mine' }),
      lan('PUT', `/api/steps/${stepIds[0]}`, { 'if-match': old }, { name: 'Mine' }),
      lan('DELETE', `/api/steps/${stepIds[1]}`, { 'if-match': old }),
      lan('DELETE', `/api/flows/${flowId}`, { 'if-match': old }),
      // A weak tag never matches a write's condition.
      lan('PUT', `/api/flows/${flowId}`, { 'if-match': `W/${current}` }, { name: 'Mine' }),
    ];
    for (const refused of await Promise.all(writes)) {
      expect(refused.statusCode).toBe(412);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.json()).toMatchObject(mismatch(currentVersion));
    }
    expect(await tagOf(`/api/flows/${flowId}`)).toBe(current);
    expect((await lan('GET', `/api/flows/${flowId}`)).json()).toMatchObject({ name: 'Changed elsewhere' });
    const steps = (await lan('GET', `/api/flows/${flowId}/steps`)).json();
    expect(steps.map((step: { name: string }) => step.name)).toEqual(['Ideas', 'Pick']);
  });

  it('makes a write on the current version and answers the new tag', async () => {
    await freshFlow();
    let tag = await tagOf(`/api/flows/${flowId}`);

    const revised = await lan('PUT', `/api/flows/${flowId}`, { 'if-match': tag }, { name: 'Oolong' });
    expect(revised.statusCode).toBe(200);
    expect(revised.headers.etag).not.toBe(tag);
    tag = revised.headers.etag as string;
    expect(await tagOf(`/api/flows/${flowId}`)).toBe(tag);

    const edited = await lan(
      'PUT',
      `/api/steps/${stepIds[0]}`,
      { 'if-match': `"0", ${tag}` },
      { name: 'Many' },
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ name: 'Many' });
    tag = edited.headers.etag as string;
    expect(await tagOf(`/api/flows/${flowId}/steps`)).toBe(tag);

    const removed = await lan('DELETE', `/api/steps/${stepIds[1]}`, { 'if-match': tag });
    expect(removed.statusCode).toBe(204);
    tag = removed.headers.etag as string;
    expect(await tagOf(`/api/flows/${flowId}`)).toBe(tag);

    // Without If-Match, as before: the write is made on whatever version is current.
    expect((await lan('PUT', `/api/flows/${flowId}`, {}, { name: 'Any' })).statusCode).toBe(200);
    expect((await lan('DELETE', `/api/flows/${flowId}`, { 'if-match': '*' })).statusCode).toBe(204);
  });

  it('lets exactly one of two writes sent at once on the same version through', async () => {
    await freshFlow();
    const tag = await tagOf(`/api/flows/${flowId}`);
    const answers = await Promise.all(
      ['Sencha', 'Matcha'].map((name) => lan('PUT', `/api/flows/${flowId}`, { 'if-match': tag }, { name })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
    const winner = answers.find((answer) => answer.statusCode === 200)!;
    const loser = answers.find((answer) => answer.statusCode === 412)!;
    expect(loser.json()).toMatchObject(mismatch(Number(JSON.parse(winner.headers.etag as string))));
    expect((await lan('GET', `/api/flows/${flowId}`)).json()).toMatchObject({ name: winner.json().name });

    const steps = await Promise.all(
      ['A', 'B'].map((name) =>
        lan('PUT', `/api/steps/${stepIds[0]}`, { 'if-match': winner.headers.etag as string }, { name }),
      ),
    );
    expect(steps.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
  });

  it('answers 404 for another user’s flow or step whatever the condition: never 412', async () => {
    await freshFlow();
    for (const ifMatch of ['"1"', '"999"', '*']) {
      expect(
        (await mai('PUT', `/api/flows/${flowId}`, { 'if-match': ifMatch }, { name: 'x' })).statusCode,
      ).toBe(404);
      expect((await mai('DELETE', `/api/flows/${flowId}`, { 'if-match': ifMatch })).statusCode).toBe(404);
      expect(
        (await mai('PUT', `/api/steps/${stepIds[0]}`, { 'if-match': ifMatch }, { name: 'x' })).statusCode,
      ).toBe(404);
      expect((await mai('DELETE', `/api/steps/${stepIds[0]}`, { 'if-match': ifMatch })).statusCode).toBe(404);
    }
    const read = await mai('GET', `/api/flows/${flowId}`, { 'if-none-match': '*' });
    expect(read.statusCode).toBe(404);
    expect(read.headers.etag).toBeUndefined();
  });
});
