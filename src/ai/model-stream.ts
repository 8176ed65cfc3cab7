import { ModelCallError, type ModelStream, type ModelUsage } from './model-provider';

/** Hands one text chunk of the answer to the stream's readers. */
export type EmitChunk = (text: string) => void;

/** Tells the stream why the model stopped writing, as the provider reported it. */
export type FinishedBecause = (reason: string | null | undefined) => void;

type Outcome = { ok: true; usage: ModelUsage | null } | { ok: false; error: Error };

/**
 * Turns a producer of text chunks into a ModelStream. The producer starts at once, whether or not anyone
 * iterates, so a consumer that only awaits `final` still gets the answer. Chunks are kept, so every
 * iterator sees the whole answer from its start. Aborting `signal` settles the stream as stopped right
 * away, without waiting for the producer to notice.
 */
export function createModelStream(
  signal: AbortSignal | undefined,
  produce: (emit: EmitChunk, finished: FinishedBecause) => Promise<ModelUsage | null>,
): ModelStream {
  const chunks: string[] = [];
  let finishReason: string | undefined;
  let outcome: Outcome | null = null;
  let wakeReaders: Array<() => void> = [];
  let resolveFinal!: (usage: ModelUsage | null) => void;
  let rejectFinal!: (error: Error) => void;
  const final = new Promise<ModelUsage | null>((resolve, reject) => {
    resolveFinal = resolve;
    rejectFinal = reject;
  }).then((usage) => ({ text: chunks.join(''), usage, ...(finishReason ? { finishReason } : {}) }));
  // A consumer that iterates sees the error from the iterator; it must not also surface as unhandled.
  final.catch(() => {});

  const wake = () => {
    const readers = wakeReaders;
    wakeReaders = [];
    for (const read of readers) read();
  };
  const settle = (next: Outcome) => {
    if (outcome) return;
    outcome = next;
    signal?.removeEventListener('abort', onAbort);
    if (next.ok) resolveFinal(next.usage);
    else rejectFinal(next.error);
    wake();
  };
  const onAbort = () => settle({ ok: false, error: ModelCallError.stopped() });
  const emit: EmitChunk = (text) => {
    if (outcome || text === '') return;
    chunks.push(text);
    wake();
  };

  if (signal?.aborted) {
    onAbort();
  } else {
    signal?.addEventListener('abort', onAbort, { once: true });
    const finished: FinishedBecause = (reason) => {
      if (reason) finishReason = reason.toLowerCase();
    };
    produce(emit, finished).then(
      (usage) => settle({ ok: true, usage }),
      (error: unknown) =>
        settle({ ok: false, error: error instanceof Error ? error : new Error(String(error)) }),
    );
  }

  return {
    final,
    async *[Symbol.asyncIterator]() {
      let next = 0;
      while (true) {
        // A failure (a stop above all) ends the iteration at once, even with chunks left unread.
        if (outcome && !outcome.ok) throw outcome.error;
        if (next < chunks.length) {
          yield chunks[next++]!;
          continue;
        }
        if (outcome) return;
        await new Promise<void>((resolve) => wakeReaders.push(resolve));
      }
    },
  };
}

/**
 * The signal a model call is made with: the caller's (a Stop) or the call's own time limit, whichever comes
 * first; `timeout` tells afterwards whether it was the time limit.
 */
export function callSignal(stop: AbortSignal | undefined, timeoutMs: number) {
  const timeout = AbortSignal.timeout(timeoutMs);
  return { signal: stop ? AbortSignal.any([stop, timeout]) : timeout, timeout };
}
