import type { ModelProvider, ModelUsage } from './model-provider';
import { createModelStream } from './model-stream';

/** How many times a structured answer that does not fit its schema is asked for again. */
export const MAX_REASKS = 2;

/** The longest part of a wrong answer shown back to the model when it is asked again. */
const SHOWN_BACK_CHARS = 4_000;

/** Whether an answer fits: null when it does, else why not (in words the model is told). */
export type AnswerCheck = (text: string) => string | null;

const added = (a: ModelUsage | null, b: ModelUsage | null): ModelUsage | null =>
  a === null
    ? b
    : b === null
      ? a
      : { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };

/**
 * The provider, with a structured answer checked before it counts: one that does not fit (an endpoint that
 * takes a schema without enforcing it, a model that wraps its JSON in prose) is asked for again with what was
 * wrong, at most MAX_REASKS times; `asked` hears of each. The answer that fits, or the last one, is the
 * stream's text, given whole once it is known (a wrong answer is never shown as the step's words); the usage
 * is every try's. A request without a schema goes to the provider as it is.
 */
export function askingAgain(
  provider: ModelProvider,
  check: AnswerCheck,
  asked: (reask: number, why: string) => void = () => {},
): ModelProvider {
  return {
    kind: provider.kind,
    model: provider.model,
    stream(request) {
      if (!request.json) return provider.stream(request);
      return createModelStream(request.signal, async (emit, finished) => {
        let usage: ModelUsage | null = null;
        let prompt = request.prompt;
        for (let reask = 0; ; reask++) {
          const answer = await provider.stream({ ...request, prompt }).final;
          usage = added(usage, answer.usage);
          const why = check(answer.text);
          if (why === null || reask >= MAX_REASKS) {
            finished(answer.finishReason);
            emit(answer.text);
            return usage;
          }
          asked(reask + 1, why);
          prompt = [
            request.prompt,
            `Your previous answer was:\n${answer.text.slice(0, SHOWN_BACK_CHARS)}`,
            `It does not follow the required format: ${why} Answer again with only JSON that follows the schema.`,
          ].join('\n\n');
        }
      });
    },
  };
}
