import { describe, expect, it } from 'vitest';
import type { ModelProvider, ModelRequest } from '../../ai';
import { createModelStream } from '../../ai/model-stream';
import { DomainError } from '../../domain/errors';
import { INTERRUPTED } from '../../domain/interrupted-runs';
import { RunRegistry } from '../executions/run-registry';
import {
  type CallFailure,
  type CallSource,
  callModel,
  type ModelCall,
  RunStoppedMeanwhile,
  SERVER_STOPPED,
} from './model-call';

/** A model that writes `chunks`, then waits for the test to end its answer (or for the call to be aborted). */
function heldModel(chunks: string[]) {
  let finish: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let producerDone: () => void = () => {};
  /** Settles once the model has returned its answer (after `finish`). */
  const ended = new Promise<void>((resolve) => {
    producerDone = resolve;
  });
  const requests: ModelRequest[] = [];
  const provider: ModelProvider = {
    kind: 'gemini',
    model: 'held',
    stream(request) {
      requests.push(request);
      return createModelStream(request.signal, async (emit) => {
        for (const chunk of chunks) emit(chunk);
        await held;
        producerDone();
        return { inputTokens: 1, outputTokens: 2 };
      });
    },
  };
  return { provider, requests, finish: () => finish(), ended };
}

/** A run of the call, and what it recorded, published and threw. */
function harness(
  source: CallSource,
  options: { maxTextChars?: number; succeeded?: () => Promise<void> } = {},
) {
  const runs = new RunRegistry();
  const recorded: Array<{ answer: string } | CallFailure> = [];
  const firstTokens: Array<number | null> = [];
  const deltas: string[] = [];
  const forgotten: string[] = [];
  const call: ModelCall<string> = {
    run: { runs, ownerId: 'execution-1', runId: 'run-1', startedAt: 3 },
    source,
    limits: { maxPromptChars: 1_000, maxTextChars: options.maxTextChars ?? 1_000 },
    tokens: {
      streamId: 'stream-1',
      sink: {
        publishDelta: (_streamId, _runId, text, after) => {
          expect(after).toBe(3);
          deltas.push(text);
        },
        forgetRun: (_streamId, runId) => forgotten.push(runId),
      },
    },
    succeeded: async (answer, _durationMs, firstTokenMs) => {
      firstTokens.push(firstTokenMs);
      await options.succeeded?.();
      recorded.push({ answer: answer.text });
      return answer.text;
    },
    failed: async (failure) => {
      recorded.push(failure);
    },
    error: (failure) => new DomainError('model_failed', `failed: ${failure.message}`),
  };
  return { runs, call, recorded, firstTokens, deltas, forgotten, outcome: callModel(call) };
}

const modelSource = (provider: ModelProvider, marked: string[] = []): CallSource => ({
  model: {
    provider,
    modelId: 'gemini:held',
    keySource: 'own',
    markUsed: async () => {
      marked.push('used');
    },
  },
  request: { system: 'Be brief.', prompt: 'Write.' },
});

describe('callModel: one model call from start to recorded outcome', () => {
  it('marks the own key used, pushes each chunk live and records the answer once', async () => {
    const model = heldModel(['Hello, ', 'world']);
    const marked: string[] = [];
    const run = harness(modelSource(model.provider, marked));
    model.finish();
    await expect(run.outcome).resolves.toBe('Hello, world');
    expect(marked).toEqual(['used']);
    expect(model.requests[0]).toMatchObject({ system: 'Be brief.', prompt: 'Write.' });
    expect(run.deltas).toEqual(['Hello, ', 'world']);
    expect(run.recorded).toEqual([{ answer: 'Hello, world' }]);
    expect(run.forgotten).toEqual(['run-1']);
    expect(run.runs.isRunning('execution-1', 'run-1')).toBe(false);
  });

  it('gives the time to the first text with the answer, and with a failure once text came', async () => {
    const model = heldModel(['Hello']);
    const run = harness(modelSource(model.provider));
    model.finish();
    await run.outcome;
    expect(run.firstTokens).toEqual([expect.any(Number)]);
    expect(run.firstTokens[0]).toBeGreaterThanOrEqual(0);

    const cut = harness(modelSource(heldModel(['12345', '67890']).provider), { maxTextChars: 8 });
    await expect(cut.outcome).rejects.toThrow(/giới hạn/);
    const [failure] = cut.recorded as CallFailure[];
    expect(failure!.firstTokenMs).toBeGreaterThanOrEqual(0);
  });

  it('has no time to the first text when none came, nor for a source that is no model', async () => {
    const silent = heldModel([]);
    const run = harness(modelSource(silent.provider));
    silent.finish();
    await expect(run.outcome).resolves.toBe('');
    expect(run.firstTokens).toEqual([null]);

    const api = harness({ answer: async () => 'From the API', name: 'Câu trả lời của API' });
    await expect(api.outcome).resolves.toBe('From the API');
    expect(api.firstTokens).toEqual([null]);
  });

  it('a Stop aborts the provider call, and the run records it stopped, once', async () => {
    const model = heldModel(['Half an answer']);
    const run = harness(modelSource(model.provider));
    await expect.poll(() => run.deltas.length).toBe(1);
    expect(run.runs.isRunning('execution-1', 'run-1')).toBe(true);
    run.runs.stopped('execution-1', 4);
    await expect(run.outcome).rejects.toThrow('failed: Stopped');
    expect(model.requests[0]!.signal!.aborted).toBe(true);
    expect(run.recorded).toEqual([
      expect.objectContaining({ reason: 'stopped', message: 'Stopped', retryable: false, recording: false }),
    ]);
    // The model's answer ending after the Stop records nothing more.
    model.finish();
    await model.ended;
    // One turn of the event loop: every promise callback the answer's end set off has run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(run.recorded).toHaveLength(1);
    expect(run.runs.isRunning('execution-1', 'run-1')).toBe(false);
  });

  it('a Stop seen while the answer is recorded makes the run stopped', async () => {
    const model = heldModel(['Done']);
    const run = harness(modelSource(model.provider), {
      succeeded: async () => {
        throw new RunStoppedMeanwhile();
      },
    });
    model.finish();
    await expect(run.outcome).rejects.toThrow('failed: Stopped');
    expect(run.recorded).toEqual([expect.objectContaining({ reason: 'stopped', recording: true })]);
  });

  it('this process stopping records the run interrupted (retryable) and answers SERVER_STOPPED', async () => {
    const model = heldModel(['Some']);
    const run = harness(modelSource(model.provider));
    await expect.poll(() => run.deltas.length).toBe(1);
    run.runs.interruptAll();
    await expect(run.outcome).rejects.toThrow(SERVER_STOPPED);
    expect(run.recorded).toEqual([
      expect.objectContaining({ reason: 'interrupted', message: INTERRUPTED, retryable: true }),
    ]);
  });

  it('cuts a too-long answer as it grows, with the limit message, and stops pushing it', async () => {
    const model = heldModel(['12345', '67890', 'never pushed']);
    const run = harness(modelSource(model.provider), { maxTextChars: 8 });
    const message =
      'Câu trả lời của model sẽ dài 10 ký tự; giới hạn (MAX_TEXT_CHARS) là 8. ' +
      'Câu trả lời không được giữ; hãy yêu cầu một câu trả lời ngắn hơn.';
    await expect(run.outcome).rejects.toThrow(`failed: ${message}`);
    expect(run.deltas).toEqual(['12345']);
    // The model is not left writing the rest.
    expect(model.requests[0]!.signal!.aborted).toBe(true);
    expect(run.recorded).toEqual([expect.objectContaining({ reason: 'failed', message })]);
  });

  it('a failed model call records its own words and whether trying again may help', async () => {
    const failing: ModelProvider = {
      kind: 'gemini',
      model: 'failing',
      stream: (request) =>
        createModelStream(request.signal, async () => {
          throw new DomainError('model_failed', 'The Gemini API is busy.', { retryable: true });
        }),
    };
    const run = harness(modelSource(failing));
    await expect(run.outcome).rejects.toThrow('failed: The Gemini API is busy.');
    expect(run.recorded).toEqual([
      expect.objectContaining({ reason: 'failed', message: 'The Gemini API is busy.', retryable: true }),
    ]);
  });

  it('a source that is no model is checked under its own name and never pushed live', async () => {
    const run = harness(
      { answer: async () => 'x'.repeat(12), name: 'Câu trả lời của API' },
      { maxTextChars: 10 },
    );
    await expect(run.outcome).rejects.toThrow(/^failed: Câu trả lời của API sẽ dài 12 ký tự/);
    expect(run.deltas).toEqual([]);
    expect(run.forgotten).toEqual([]);
    expect(run.recorded).toHaveLength(1);
  });
});
