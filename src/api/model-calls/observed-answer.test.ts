import { trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../ai';
import { createModelStream } from '../../ai/model-stream';
import { metricsText } from '../telemetry/metrics';
import { observedProvider } from './observed-answer';

// The spans on an SDK of the test's own, exported to memory.
const exporter = new node.InMemorySpanExporter();
const tracing = new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(exporter)] });
beforeAll(() => trace.setGlobalTracerProvider(tracing));
afterAll(async () => {
  trace.disable();
  await tracing.shutdown();
});
beforeEach(() => exporter.reset());

/** A model that answers at once with its tokens, or fails when told to. */
const model = (fails: boolean): ModelProvider => ({
  kind: 'openai',
  model: 'observed-model',
  stream: (request) =>
    createModelStream(request.signal, async (emit) => {
      if (fails) throw new Error('the endpoint went away');
      emit('An answer.');
      return { inputTokens: 4, outputTokens: 3 };
    }),
});

/** How many calls of the observed model the metrics counted with `outcome`. */
async function counted(outcome: string) {
  const { body } = await metricsText();
  const line = body
    .split('\n')
    .find(
      (l) =>
        l.startsWith('workbench_model_calls_total{') &&
        l.includes('model="observed-model"') &&
        l.includes(`outcome="${outcome}"`),
    );
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('a model call that is no run (generating a workflow, suggestions, ...)', () => {
  it('is a chat span with the GenAI attributes and counted, in one place; its text is not on the span', async () => {
    const before = await counted('succeeded');
    const provider = observedProvider(model(false), 'openai:observed-model');
    const stream = provider.stream({ system: 'Be brief.', prompt: 'A private prompt' });
    const chunks: string[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks).toEqual(['An answer.']);
    expect((await stream.final).text).toBe('An answer.');
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('chat observed-model');
    expect(span?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 4,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(JSON.stringify(span?.attributes)).not.toContain('private prompt');
    expect(await counted('succeeded')).toBe(before + 1);
  });

  it('a failure is thrown as it came, the span failed and the call counted failed', async () => {
    const before = await counted('failed');
    const stream = observedProvider(model(true), 'openai:observed-model').stream({ system: '', prompt: 'x' });
    await expect(stream.final).rejects.toThrow('the endpoint went away');
    const [span] = exporter.getFinishedSpans();
    // A plain Error names no kind: the convention's fallback.
    expect(span?.attributes['error.type']).toBe('_OTHER');
    expect(await counted('failed')).toBe(before + 1);
  });
});
