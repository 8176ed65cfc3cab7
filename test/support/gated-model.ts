import type { ModelProvider } from '../../src/ai';

/**
 * A model whose answers wait until the test releases them: the test knows every call under way is waiting
 * (`calls`), and decides when they answer. Each release answers the calls waiting then; later calls wait again.
 */
export function gatedModel(answer = 'an answer') {
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let calls = 0;
  const provider: ModelProvider = {
    kind: 'gemini',
    model: 'gated',
    stream() {
      calls += 1;
      const waitFor = gate;
      const final = waitFor.then(() => ({ text: answer, usage: null }));
      return Object.assign(
        (async function* () {
          await waitFor;
          yield answer;
        })(),
        { final },
      );
    },
  };
  return {
    provider,
    calls: () => calls,
    release() {
      const current = release;
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      current();
    },
  };
}
