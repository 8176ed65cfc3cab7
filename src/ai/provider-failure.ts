import { ModelCallError } from './model-provider';

/** The providers whose SDKs (both made by Stainless) share one error family. */
export type ProviderName = 'OpenAI' | 'Anthropic';

export interface ProviderCallContext {
  provider: ProviderName;
  model: string;
  /** Where the calls went, for the "cannot reach" message. */
  baseUrl: string;
  timeoutMs: number;
  /** The caller's signal fired: the user stopped the run. */
  stopped: boolean;
  /** Our own time limit fired. */
  timedOut: boolean;
}

/**
 * What an SDK error says, in terms both SDKs share. Each provider sorts its own SDK's error classes into
 * these; the wording below is shared.
 */
export type SdkFailure =
  /** The API answered with an error status; `detail` is the message of its error body. */
  | { kind: 'status'; status: number; detail: string; code: string | null }
  /** The API reported an error in the middle of a streamed answer (no HTTP status any more). */
  | { kind: 'stream'; detail: string; code: string | null }
  /** The request never got an answer: refused connection, unknown host, broken socket. */
  | { kind: 'connection'; reason: string }
  /** The SDK's own time limit fired. */
  | { kind: 'timeout' }
  /** The request was aborted (by our signal). */
  | { kind: 'aborted' };

const limit = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`);

/** The innermost cause's code or message, e.g. ECONNREFUSED, for "cannot reach". */
export function connectionReason(error: unknown): string {
  let current: unknown = error;
  let reason = '';
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') reason = code;
    else if (reason === '' && current.message !== '') reason = current.message;
    current = current.cause;
  }
  return reason;
}

const tooLong = (detail: string, code: string | null) =>
  code === 'context_length_exceeded' ||
  /prompt is too long|maximum context length|context[_ ]length|context window/i.test(detail);

const unknownModel = (status: number, detail: string, code: string | null) =>
  code === 'model_not_found' || (status === 404 && /model/i.test(`${detail} ${code ?? ''}`));

function fromStatus(
  status: number,
  detail: string,
  code: string | null,
  context: ProviderCallContext,
  cause: unknown,
): ModelCallError {
  const { provider, model } = context;
  // Without a detail from the API the message just ends after its own sentence.
  const fail = (text: string, retryable: boolean) =>
    new ModelCallError(text.trimEnd(), { retryable, status, cause });
  if (status === 401 || status === 403) {
    return fail(
      `The ${provider} API refused the key (${status}). Check that the API key is correct and allowed to use "${model}".`,
      false,
    );
  }
  if (unknownModel(status, detail, code)) {
    return fail(
      `The ${provider} model "${model}" was not found (${status}). Check the model name. ${detail}`,
      false,
    );
  }
  if (status === 429 && code === 'insufficient_quota') {
    return fail(
      `The ${provider} account has no quota left (429). Check its plan and billing. ${detail}`,
      false,
    );
  }
  if (status === 429) {
    return fail(
      `The ${provider} API rate limit was reached (429). Wait a moment and try again. ${detail}`,
      true,
    );
  }
  if ((status === 400 || status === 413) && tooLong(detail, code)) {
    return fail(
      `The prompt is too long for the ${provider} model "${model}" (${status}). Shorten the input. ${detail}`,
      false,
    );
  }
  if (status >= 500) {
    return fail(`The ${provider} API is unavailable right now (${status}). Try again. ${detail}`, true);
  }
  return fail(`The ${provider} API refused the request (${status}): ${detail}`, false);
}

/** What a failed OpenAI or Anthropic call means for the user, and whether trying again may help. */
export function explainProviderFailure(
  error: unknown,
  failure: SdkFailure | null,
  context: ProviderCallContext,
): ModelCallError {
  if (error instanceof ModelCallError) return error;
  if (context.stopped) return ModelCallError.stopped();
  const { provider } = context;
  if (context.timedOut || failure?.kind === 'timeout') {
    return new ModelCallError(
      `The ${provider} API did not finish answering within ${limit(context.timeoutMs)}. Try again.`,
      { retryable: true, cause: error },
    );
  }
  switch (failure?.kind) {
    case 'status':
      return fromStatus(failure.status, failure.detail, failure.code, context, error);
    case 'stream': {
      if (tooLong(failure.detail, failure.code)) return fromStatus(400, failure.detail, null, context, error);
      return new ModelCallError(`The ${provider} API broke off the answer: ${failure.detail} Try again.`, {
        retryable: true,
        cause: error,
      });
    }
    case 'connection': {
      const reason = failure.reason === '' ? '' : ` (${failure.reason})`;
      return new ModelCallError(
        `Cannot reach ${context.baseUrl}${reason}. Check the ${provider} base URL and try again.`,
        { retryable: true, cause: error },
      );
    }
    case 'aborted':
      // Aborted without our signal or timer firing: only the SDK itself does that.
      return new ModelCallError(`The ${provider} call was cut off. Try again.`, {
        retryable: true,
        cause: error,
      });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ModelCallError(`The ${provider} call failed: ${message}`, { retryable: false, cause: error });
}

/** The model declined to answer: asking again the same way will not help. */
export const refused = (provider: ProviderName, why: string) =>
  new ModelCallError(`The ${provider} model declined to answer (${why}). Rephrase the prompt or its input.`, {
    retryable: false,
  });

/** No text at all, and no reason given: a bare empty answer may go better next time. */
export const emptyAnswer = (provider: ProviderName) =>
  new ModelCallError(`The ${provider} API returned an empty answer. Try again.`, { retryable: true });
