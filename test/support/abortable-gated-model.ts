import type { ModelProvider } from '../../src/ai';
import { answering } from './gated-model';

/**
 * A model whose calls wait until the test opens its gate (or their run is aborted, as a stop or a closing
 * server aborts it), counting them; with the gate open, every call answers at once.
 */
export function abortableGatedModel() {
  let opened = false;
  const waiting = new Set<() => void>();
  let calls = 0;
  const provider: ModelProvider = {
    kind: 'offline',
    model: 'gated',
    stream(request) {
      calls += 1;
      const text = `answer ${calls}`;
      const final = new Promise<{ text: string; usage: null }>((resolve, reject) => {
        const answer = () => resolve({ text, usage: null });
        if (opened) return answer();
        waiting.add(answer);
        request.signal?.addEventListener('abort', () => {
          waiting.delete(answer);
          reject(new Error('aborted'));
        });
      });
      return answering(final);
    },
  };
  return {
    provider,
    calls: () => calls,
    waiting: () => waiting.size,
    open() {
      opened = true;
      for (const answer of waiting) answer();
      waiting.clear();
    },
  };
}
