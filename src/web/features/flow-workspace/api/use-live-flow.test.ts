import { describe, expect, it, vi } from 'vitest';
import { flowWatcher } from './use-live-flow';

describe('flowWatcher', () => {
  it('reads the flow again once the subscription holds, so what happened since the page read it is not missed', () => {
    const readAgain = vi.fn();
    const watcher = flowWatcher(readAgain);
    expect(watcher.after()).toBeUndefined();
    watcher.onMessage({ type: 'up-to-date', flowId: 'f1', position: 4 });
    expect(readAgain).toHaveBeenCalledTimes(1);
    // A reconnect subscribes again from the position reached.
    expect(watcher.after()).toBe(4);
  });

  it('reads the flow again for each of its events and for an execution started elsewhere', () => {
    const readAgain = vi.fn();
    const watcher = flowWatcher(readAgain);
    watcher.onMessage({ type: 'execution-started', flowId: 'f1', executionId: 'e1' });
    expect(readAgain).toHaveBeenCalledTimes(1);
    watcher.onMessage({
      type: 'event',
      flowId: 'f1',
      position: 5,
      event: { type: 'StepRenamed' },
    } as never);
    expect(readAgain).toHaveBeenCalledTimes(2);
    expect(watcher.after()).toBe(5);
  });
});
