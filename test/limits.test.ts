import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventTooLarge, MAX_EVENT_BYTES } from '../src/eventstore';
import { createTestDatabase } from './support/database';
import { scriptedModel } from './support/scripted-model';
import { startServerProcess } from './support/server-process';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/** The one-step-feeds-the-next worst case: a big result, and a prompt that names it 400 times. */
async function amplifiedFlow(client: Client, resultChars: number) {
  const { flow, steps } = await createFlow(client, 'Amplified', [
    { name: 'Big', systemPrompt: 'Write.' },
    { name: 'Repeat', systemPrompt: '[[step-1]]'.repeat(400) },
  ]);
  const execution = (await client.post(`/api/flows/${flow.id}/execute`)).json();
  const run = await client.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
  expect(run.statusCode).toBe(200);
  const [result] = run.json().results;
  const edited = await client.put(`/api/step-results/${result.id}`, { result: 'x'.repeat(resultChars) });
  expect(edited.statusCode).toBe(200);
  return { execution, repeat: steps[1] };
}

describe('bounded work with the default limits', () => {
  const model = scriptedModel();
  let t: TestApp;
  let alice: Client;
  let calls = 0;

  beforeAll(async () => {
    t = await createTestApp(
      {},
      {
        resolveModel: () => ({
          provider: {
            ...model.provider,
            stream: (request) => {
              calls++;
              return model.provider.stream(request);
            },
          },
          keySource: 'default',
        }),
      },
    );
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(() => t.close());

  it('answers 413 to a prompt that names a big result 400 times, before anything is appended or called', async () => {
    const { execution, repeat } = await amplifiedFlow(alice, 499_999);
    const before = await t.store.readStream(`execution-${execution.id}`);
    const callsBefore = calls;
    const refused = await alice.post(`/api/executions/${execution.id}/steps/${repeat.id}/execute`, {});
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe(
      'Prompt sẽ dài 199,999,656 ký tự; giới hạn (MAX_PROMPT_CHARS) là 1,000,000.',
    );
    const after = await t.store.readStream(`execution-${execution.id}`);
    // Nothing at all: not the run, not even the sync of the flow's steps.
    expect(after.version).toBe(before.version);
    expect(calls).toBe(callsBefore);
  });

  it('answers 413 naming the field to one text past MAX_TEXT_CHARS, and stores nothing of it', async () => {
    const { flow, steps } = await createFlow(alice, 'Texts', [{ name: 'A', systemPrompt: 'a' }]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    const url = `/api/executions/${execution.id}/steps/${steps[0].id}/execute`;
    const input = await alice.post(url, { userInput: 'y'.repeat(500_001) });
    expect(input.statusCode).toBe(413);
    expect(input.json().message).toBe(
      'userInput sẽ dài 500,001 ký tự; giới hạn (MAX_TEXT_CHARS) là 500,000.',
    );
    const [result] = (await alice.post(url, {})).json().results;
    const edit = await alice.put(`/api/step-results/${result.id}`, { result: 'é'.repeat(500_001) });
    expect(edit.statusCode).toBe(413);
    expect(edit.json().message).toMatch(/^result sẽ dài 500,001 ký tự/);
    const notes = await alice.post('/api/context', { flowId: flow.id, userNotes: 'n'.repeat(600_000) });
    expect(notes.statusCode).toBe(413);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.results.map((r: { result: string }) => r.result.length)).toEqual([result.result.length]);
  });

  it('refuses a master mode chain whose row would pass MAX_TEXT_CHARS, and runs one within it', async () => {
    const session = (await alice.post('/api/master-mode/standalone', { name: 'Chain' })).json();
    const first = (
      await alice.post('/api/master-mode/steps', {
        sessionId: session.id,
        stepName: 'Seed',
        stepType: 'text',
        userInput: 'z'.repeat(300_000),
      })
    ).json();
    const second = (
      await alice.post('/api/master-mode/steps', {
        sessionId: session.id,
        stepName: 'Twice',
        stepType: 'text',
        userInput: '[[row-1]][[row-1]]',
      })
    ).json();
    expect((await alice.post(`/api/master-mode/execute/${first.id}`)).statusCode).toBe(200);
    const refused = await alice.post(`/api/master-mode/execute/${second.id}`);
    expect(refused.statusCode).toBe(413);
    expect(refused.json().message).toBe(
      'Dòng 002 "Twice": input sẽ dài 600,000 ký tự; giới hạn (MAX_TEXT_CHARS) là 500,000.',
    );
    const runs = (await alice.get(`/api/master-mode/session/${session.id}/runs`)).json();
    expect(runs).toHaveLength(1);
  });

  it('keeps a model answer past MAX_TEXT_CHARS out: the run fails saying so', async () => {
    const { flow, steps } = await createFlow(alice, 'Talkative', [{ name: 'A', systemPrompt: 'a' }]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    model.answers.push('w'.repeat(500_001));
    const run = await alice.post(`/api/executions/${execution.id}/steps/${steps[0].id}/execute`, {});
    expect(run.statusCode).toBe(502);
    expect(run.json().message).toBe(
      'Câu trả lời của model sẽ dài 500,001 ký tự; giới hạn (MAX_TEXT_CHARS) là 500,000. Câu trả lời không được giữ; hãy yêu cầu một câu trả lời ngắn hơn.',
    );
    const events = (await t.store.readStream(`execution-${execution.id}`)).events.map((e) => e.type);
    expect(events.at(-1)).toBe('StepRunFailed');
    expect((await alice.get(`/api/executions/${execution.id}`)).json().results).toEqual([]);
  });

  it('refuses to store an event larger than 8 MB of JSON, writing nothing', async () => {
    const streamId = `oversized-${Date.now()}`;
    const huge = { type: 'Huge', data: { text: 'é'.repeat(MAX_EVENT_BYTES / 2) } };
    await expect(t.store.append(streamId, 'test', 'no_stream', [huge])).rejects.toBeInstanceOf(EventTooLarge);
    expect(await t.store.streamVersion(streamId)).toBe(0);
    const fits = { type: 'Fits', data: { text: 'é'.repeat(MAX_EVENT_BYTES / 4) } };
    expect((await t.store.append(streamId, 'test', 'no_stream', [fits])).events).toHaveLength(1);
  });
});

/** Resident memory of a process, from the kernel. */
async function residentBytes(pid: number) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

describe('the worst case against the real server', () => {
  it('answers four amplified runs at once with 413 and stays within 100 MB of its idle memory', async () => {
    const db = await createTestDatabase();
    const server = await startServerProcess(db.url);
    try {
      const registered = await fetch(`${server.url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'big@example.com',
          password: 'correct horse battery',
          firstName: 'B',
          lastName: 'C',
        }),
      });
      const cookie = (registered.headers.get('set-cookie') ?? '').split(';')[0]!;
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers: { cookie, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, json: () => response.json() };
      };
      const client = {
        post: (path: string, body?: unknown) => call('POST', path, body ?? {}).then(toInject),
        put: (path: string, body?: unknown) => call('PUT', path, body).then(toInject),
        get: (path: string) => call('GET', path).then(toInject),
        delete: (path: string) => call('DELETE', path).then(toInject),
      } as unknown as Client;
      const cases = [];
      for (let i = 0; i < 4; i++) cases.push(await amplifiedFlow(client, 499_999));
      const idle = await residentBytes(server.child.pid!);
      const answers = await Promise.all(
        cases.map(({ execution, repeat }) =>
          call('POST', `/api/executions/${execution.id}/steps/${repeat.id}/execute`, {}),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([413, 413, 413, 413]);
      const after = await residentBytes(server.child.pid!);
      expect(after - idle).toBeLessThan(100 * 1024 * 1024);
    } finally {
      await server.stop();
      await db.drop();
    }
  });
});

/** A fetch answer as the inject-based helpers read one. */
async function toInject(answer: { status: number; json: () => Promise<unknown> }) {
  const body = await answer.json();
  return { statusCode: answer.status, json: () => body };
}
