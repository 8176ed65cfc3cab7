import type { ModelProvider } from '../../src/ai';

/**
 * A model that answers each call with the next text the test queued (else 'plain text'), at once: tests give
 * several results, choices, loops or an answer breaking a step's contract on purpose.
 */
export function scriptedModel() {
  const answers: string[] = [];
  const provider: ModelProvider = {
    kind: 'gemini',
    model: 'scripted',
    stream() {
      const text = answers.shift() ?? 'plain text';
      return Object.assign(
        (async function* () {
          yield text;
        })(),
        { final: Promise.resolve({ text, usage: null }) },
      );
    },
  };
  return { answers, provider };
}
