import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProvider } from '../src/ai';
import { createModelStream } from '../src/ai/model-stream';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/** A model that answers in four chunks of forty characters, stopping when its call is aborted; it counts them. */
let written = 0;
const wordy: ModelProvider = {
  kind: 'gemini',
  model: 'wordy',
  stream: (request) =>
    createModelStream(request.signal, async (emit) => {
      for (let i = 0; i < 4 && !request.signal?.aborted; i++) {
        written++;
        emit('x'.repeat(40));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { inputTokens: 1, outputTokens: 160 };
    }),
};

const TOO_LONG =
  'Câu trả lời của model sẽ dài 120 ký tự; giới hạn (MAX_TEXT_CHARS) là 100. ' +
  'Câu trả lời không được giữ; hãy yêu cầu một câu trả lời ngắn hơn.';

describe('one model call path for step runs and master mode rows', () => {
  let t: TestApp;
  let alice: Client;

  beforeAll(async () => {
    t = await createTestApp(
      { limits: { maxPromptChars: 1_000_000, maxTextChars: 100 } },
      { resolveModel: () => ({ provider: wordy, keySource: 'default' }) },
    );
    alice = as(t.app, (await signUp(t.app, 'Alice')).cookie);
  });
  afterAll(() => t.close());

  it('cuts a too-long answer as it grows, with the same message for a step run and a master mode row', async () => {
    const { flow, steps } = await createFlow(alice, 'Wordy', [{ name: 'Write', systemPrompt: 'Write.' }]);
    const execution = (await alice.post(`/api/flows/${flow.id}/execute`)).json();
    written = 0;
    const step = await alice.post(`/api/executions/${execution.id}/steps/${steps[0]!.id}/execute`, {});
    expect(step.statusCode).toBe(502);
    expect(step.json().message).toBe(TOO_LONG);
    // Cut at the chunk that went past the limit, and the call aborted: the model did not write the rest.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(written).toBe(3);
    const view = (await alice.get(`/api/executions/${execution.id}`)).json();
    expect(view.results).toEqual([]);
    expect(view.runs[0]).toMatchObject({ status: 'failed', message: TOO_LONG });

    const session = (await alice.post('/api/master-mode/standalone', { name: 'Sheet' })).json();
    const row = (
      await alice.post('/api/master-mode/steps', {
        sessionId: session.id,
        stepName: 'Ask',
        systemPrompt: 'Write.',
      })
    ).json();
    written = 0;
    const ran = await alice.post(`/api/master-mode/execute/${row.id}`);
    expect(ran.statusCode).toBe(502);
    expect(ran.json().message).toBe(`Dòng 001 "Ask": ${TOO_LONG}`);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(written).toBe(3);
    const [run] = (await alice.get(`/api/master-mode/session/${session.id}/runs`)).json();
    expect(run).toMatchObject({ success: false, errorMessage: TOO_LONG, result: null });

    // Neither failed run spent the free allowance.
    expect((await alice.get('/api/user/usage')).json()).toMatchObject({ usedSteps: 0 });
  });
});
