import type { ModelProvider } from '../../src/ai';

/**
 * A model whose answers wait at a gate the test controls: it knows every call under way is waiting (`calls`)
 * and decides when they answer. `release` answers the calls waiting now and closes the gate behind them;
 * `open` leaves it open (every call answers at once) until `close`. Call N answers `answer N`.
 */
export function gatedModel() {
  let open: () => void = () => {};
  let gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  let calls = 0;
  const close = () => {
    gate = new Promise<void>((resolve) => {
      open = resolve;
    });
  };
  const provider: ModelProvider = {
    kind: 'gemini',
    model: 'gated',
    stream() {
      calls += 1;
      const text = `answer ${calls}`;
      const final = gate.then(() => ({ text, usage: null }));
      return answering(final);
    },
  };
  return {
    provider,
    calls: () => calls,
    open: () => open(),
    close,
    release() {
      const current = open;
      close();
      current();
    },
  };
}

/** A model's stream of one chunk, the whole answer once `final` settles, and `final` itself. */
export function answering(final: Promise<{ text: string; usage: null }>) {
  return Object.assign(
    (async function* () {
      yield (await final).text;
    })(),
    { final },
  );
}
