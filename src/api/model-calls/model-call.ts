import { type ModelAnswer, type ModelRequest, type ModelStream, STOPPED_MESSAGE } from '../../ai';
import { createModelStream } from '../../ai/model-stream';
import { DomainError } from '../../domain/errors';
import { INTERRUPTED } from '../../domain/interrupted-runs';
import { checkAnswerSize, type Limits } from '../../domain/limits';
import { ConcurrencyConflict } from '../../eventstore';
import { throughOutage } from '../database/through-outage';
import type { RunRegistry } from '../executions';
import { type ModelCallOutcome, modelCallMeasured } from '../telemetry/metrics';
import { type ChatSpan, POSITION, traceChat } from '../telemetry/spans';
import type { RunModel } from './user-models';

/** Where a run's tokens go while the model writes them. */
export interface TokenSink {
  /** `after`: the stream position of the run's start event. */
  publishDelta(streamId: string, runId: string, text: string, after: number): void;
  forgetRun(streamId: string, runId: string): void;
}

/** What a request whose run this process cut off while stopping answers. */
export const SERVER_STOPPED = 'The server restarted while the model was answering; run it again.';

/** The model's answer, as the size limit's message names it. */
const MODEL_ANSWER = 'Câu trả lời của model';

/** Thrown by `succeeded` when the run was stopped while the model answered: the call ends as stopped. */
export class RunStoppedMeanwhile extends Error {
  override message = STOPPED_MESSAGE;
}

/** Why a call ended without its answer recorded, and what its run records. */
export interface CallFailure {
  /** stopped: the user's Stop; interrupted: this process stopping (the run may run again); failed: the rest. */
  reason: 'stopped' | 'interrupted' | 'failed';
  /** What the run records. */
  message: string;
  retryable: boolean;
  /** The answer came in full and recording it failed (`error` is what `succeeded` threw). */
  recording: boolean;
  error: unknown;
  /** As `succeeded` is given it: null when the model wrote nothing, or the source is no model. */
  firstTokenMs: number | null;
}

/** What answers a run: the user's model, or (a master mode api or text row) a source that is no model. */
export type CallSource =
  | { model: RunModel; request: Omit<ModelRequest, 'signal'> }
  | {
      /** The whole answer; aborting `signal` stops it. */
      answer: (signal: AbortSignal) => Promise<string>;
      /** The answer, as the size limit's message names it. */
      name: string;
    };

export interface ModelCall<T> {
  /** The run the call answers, tracked while the call lasts: a Stop or this process stopping aborts it. */
  run: {
    runs: RunRegistry;
    /** The execution, or master mode session. */
    ownerId: string;
    runId: string;
    /** The stream position of the run's start event. */
    startedAt: number;
  };
  source: CallSource;
  limits: Limits;
  /** Where the model's text goes live as it arrives (the source's stream id). */
  tokens: { sink: TokenSink; streamId: string };
  /**
   * Records the answer, and answers the run. `durationMs`: from the call's start to its whole answer;
   * `firstTokenMs`: from sending the model its request to the first text of the answer as the call reads it
   * (null when the source is no model).
   */
  succeeded(answer: ModelAnswer, durationMs: number, firstTokenMs: number | null): Promise<T>;
  /** Records the run's failure. */
  failed(failure: CallFailure): Promise<void>;
  /** What a failed call throws once its failure is recorded; an interrupted one always throws SERVER_STOPPED. */
  error(failure: CallFailure): unknown;
  /** What the run records when its answer could not be recorded while its stream kept changing. */
  conflictMessage?: string;
}

/**
 * A run's model call from start to recorded outcome, for flow step runs and master mode rows alike: the own
 * key is marked used, the model's text is checked against the size limit as it accumulates and pushed live,
 * a Stop or this process stopping aborts the call (as does any failure: no call outlives its run), and exactly
 * one outcome is recorded: the answer (`succeeded`), else the failure (`failed`) as stopped, interrupted or
 * failed with its message.
 */
export async function callModel<T>(call: ModelCall<T>): Promise<T> {
  const { runs, ownerId, runId } = call.run;
  const tracked = runs.track(ownerId, runId, call.run.startedAt);
  const started = performance.now();
  const timing: FirstToken = { ms: null };
  let recording = false;
  try {
    const answer = await tracedAnswerOf(call, tracked.signal, timing);
    measured(call.source, started, 'succeeded', answer.usage);
    recording = true;
    const durationMs = Math.round(performance.now() - started);
    return await throughOutage(() => call.succeeded(answer, durationMs, timing.ms));
  } catch (error) {
    if (error instanceof RunStoppedMeanwhile) tracked.abort();
    const failure = {
      ...failureOf(error, tracked.signal, recording, call.conflictMessage),
      firstTokenMs: timing.ms,
    };
    if (!recording) measured(call.source, started, failure.reason, null, error);
    // A call cut short (a too-long answer, say) is not left running: the model stops writing.
    if (!tracked.signal.aborted) tracked.abort();
    await throughOutage(() => call.failed(failure));
    if (failure.reason === 'interrupted') {
      throw new DomainError('model_failed', SERVER_STOPPED, { retryable: true });
    }
    throw call.error(failure);
  } finally {
    tracked.untrack();
    if ('model' in call.source) call.tokens.sink.forgetRun(call.tokens.streamId, runId);
  }
}

/** `answerOf`, a model's call traced as its chat span (see traceChat); another source's is not. */
function tracedAnswerOf<T>(call: ModelCall<T>, signal: AbortSignal, firstToken: FirstToken) {
  const { source } = call;
  if (!('model' in source)) return answerOf(call, signal, firstToken, null);
  const { modelId, provider } = source.model;
  const traced = { modelId, provider, request: source.request, record: { [POSITION]: call.run.startedAt } };
  return traceChat(traced, async (chat) => {
    try {
      const answer = await answerOf(call, signal, firstToken, chat);
      chat.answered(answer);
      return answer;
    } catch (error) {
      chat.failed(error, abortedAs(signal));
      throw error;
    }
  });
}

/** Why the call was aborted: the user's Stop, or this process stopping; null when it was not. */
function abortedAs(signal: AbortSignal): 'stopped' | 'interrupted' | null {
  if (!signal.aborted) return null;
  return signal.reason === 'interrupted' ? 'interrupted' : 'stopped';
}

/** When the model's first text came: milliseconds after its request was sent; null until then. */
interface FirstToken {
  ms: number | null;
}

/**
 * The source's whole answer, checked against the size limit as it comes; the model's text pushed live, and
 * when its first text came written to `firstToken` (the one place a run's time to the first token is measured).
 */
async function answerOf<T>(
  call: ModelCall<T>,
  signal: AbortSignal,
  firstToken: FirstToken,
  chat: ChatSpan | null,
): Promise<ModelAnswer> {
  const { source, limits, tokens, run } = call;
  let stream: ModelStream;
  let name: string;
  let live: ((text: string) => void) | null = null;
  let came: (() => void) | null = null;
  if ('model' in source) {
    await source.model.markUsed();
    const sent = performance.now();
    stream = source.model.provider.stream({ ...source.request, signal });
    name = MODEL_ANSWER;
    live = (text) => tokens.sink.publishDelta(tokens.streamId, run.runId, text, run.startedAt);
    came = () => {
      firstToken.ms ??= Math.round(performance.now() - sent);
      chat?.firstChunk();
    };
  } else {
    stream = createModelStream(signal, async (emit) => {
      emit(await source.answer(signal));
      return null;
    });
    name = source.name;
  }
  let written = 0;
  for await (const text of stream) {
    came?.();
    written += text.length;
    checkAnswerSize(name, written, limits);
    live?.(text);
  }
  const answer = await stream.final;
  checkAnswerSize(name, answer.text.length, limits);
  return answer;
}

/** How a call ended that recorded no answer: a Stop, this process stopping, or what went wrong. */
function failureOf(
  error: unknown,
  signal: AbortSignal,
  recording: boolean,
  conflictMessage: string | undefined,
): Omit<CallFailure, 'firstTokenMs'> {
  const aborted = signal.aborted;
  // This process stopping cut the call off: recorded as a crash would be, and the run may be made again.
  const reason = abortedAs(signal) ?? 'failed';
  const interrupted = reason === 'interrupted';
  const message =
    reason === 'interrupted'
      ? INTERRUPTED
      : reason === 'stopped'
        ? STOPPED_MESSAGE
        : error instanceof ConcurrencyConflict && conflictMessage !== undefined
          ? conflictMessage
          : error instanceof Error
            ? error.message
            : String(error);
  const retryable = interrupted || (!aborted && error instanceof DomainError && error.retryable);
  return { reason, message, retryable, recording, error };
}

/** A call's end as the metrics count it: a source that is no model (a master mode api or text row) is not. */
function measured(
  source: CallSource,
  started: number,
  outcome: ModelCallOutcome,
  usage: ModelAnswer['usage'],
  error?: unknown,
) {
  if ('model' in source) modelCallMeasured(source.model, started, outcome, usage, error);
}
