import { DomainError } from '../domain/errors';

/** What a step (or any other feature) asks of a model. */
export interface ModelRequest {
  system: string;
  prompt: string;
  /** Asks for a JSON answer that conforms to this JSON schema. */
  json?: { schema: object; via?: SchemaVia };
  /** Aborting it stops the call; the stream then fails with the 'Stopped' error. */
  signal?: AbortSignal;
}

/**
 * How a request's JSON schema reaches the model: `api`, the endpoint's schema parameter (the default);
 * `prompt`, an instruction in the system prompt only (the endpoint refuses the parameter); `both`, the
 * parameter and the instruction (the endpoint takes the parameter without enforcing it).
 */
export type SchemaVia = 'api' | 'prompt' | 'both';

export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ModelAnswer {
  text: string;
  /** Null when the model did not report token counts. */
  usage: ModelUsage | null;
  /** Why the model stopped writing, in the provider's word lower-cased (`stop`, `end_turn`, `length`); absent when not reported. */
  finishReason?: string;
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
  /**
   * Whether the endpoint's schema parameter is enforced is found by a probe, once per model (`probe`: an
   * OpenAI-compatible endpoint, where some take the parameter and ignore it); unset: the provider always
   * answers to the schema the same way (Gemini's constrained decoding, Anthropic's instruction, the offline
   * model), and is never probed.
   */
  schemaProbe?: { endpoint: string };
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
