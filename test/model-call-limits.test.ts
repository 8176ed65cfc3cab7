import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelProvider } from '../src/ai';
import { createModelStream } from '../src/ai/model-stream';
import { as, type Client, createFlow, createTestApp, signUp, type TestApp } from './support/test-app';

/**
 * A model that writes three chunks of forty characters, then goes on only once its call is aborted: each call
 * settles `stopped` with whether it was told to stop. A call nobody aborts never ends (and the test times out).
 */
const stopped: Promise<boolean>[] = [];
const wordy: ModelProvider = {
  kind: 'gemini',
  model: 'wordy',
  stream: (request) => {
    let told: (aborted: boolean) => void = () => {};
    stopped.push(new Promise((resolve) => (told = resolve)));
    return createModelStream(request.signal, async (emit) => {
      for (let i = 0; i < 3; i++) emit('x'.repeat(40));
      const signal = request.signal!;
      if (!signal.aborted)
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      told(signal.aborted);
      return { inputTokens: 1, outputTokens: 120 };
    });
  },
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
    const step = await alice.post(`/api/executions/${execution.id}/steps/${steps[0]!.id}/execute`, {});
    expect(step.statusCode).toBe(502);
    expect(step.json().message).toBe(TOO_LONG);
    // Cut at the chunk that went past the limit, and the call aborted: the model was told to stop.
    expect(await stopped.at(-1)).toBe(true);
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
    const ran = await alice.post(`/api/master-mode/execute/${row.id}`);
    expect(ran.statusCode).toBe(502);
    expect(ran.json().message).toBe(`Dòng 001 "Ask": ${TOO_LONG}`);
    expect(await stopped.at(-1)).toBe(true);
    const [run] = (await alice.get(`/api/master-mode/session/${session.id}/runs`)).json();
    expect(run).toMatchObject({ success: false, errorMessage: TOO_LONG, result: null });

    // Neither failed run spent the free allowance.
    expect((await alice.get('/api/user/usage')).json()).toMatchObject({ usedSteps: 0 });
  });
});
