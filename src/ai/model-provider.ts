import { DomainError } from '../domain/errors';

/** What a step (or any other feature) asks of a model. */
export interface ModelRequest {
  system: string;
  prompt: string;
  /** Asks for a JSON answer that conforms to this JSON schema. */
  json?: { schema: object };
  /** Aborting it stops the call; the stream then fails with the 'Stopped' error. */
  signal?: AbortSignal;
}

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelAnswer {
  text: string;
  /** Null when the model did not report token counts. */
  usage: ModelUsage | null;
}

/**
 * Iterating yields the answer's text chunks as they arrive; `final` settles once the answer is complete.
 * A consumer may only await `final` and never iterate.
 */
export interface ModelStream extends AsyncIterable<string> {
  final: Promise<ModelAnswer>;
}

export interface ModelProvider {
  kind: 'gemini' | 'offline' | 'openai' | 'anthropic';
  model: string;
  stream(request: ModelRequest): ModelStream;
}

export const STOPPED_MESSAGE = 'Stopped';

/** A failed model call, worded for the user; `retryable` says whether trying again later may succeed. */
export class ModelCallError extends DomainError {
  readonly status?: number;

  constructor(message: string, options: { retryable: boolean; status?: number; cause?: unknown }) {
    super('model_failed', message, options);
    this.name = 'ModelCallError';
    if (options.status !== undefined) this.status = options.status;
  }

  static stopped(): ModelCallError {
    return new ModelCallError(STOPPED_MESSAGE, { retryable: false });
  }
}
