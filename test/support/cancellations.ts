import type { ServerResponse } from 'node:http';

/**
 * The calls of a fake API whose client went away before the answer had been sent whole (a Stop, a timeout),
 * and a way to wait for them without sleeping.
 */
export function cancellations<Call>() {
  const cancelled: Call[] = [];
  let waiters: Array<() => void> = [];
  return {
    cancelled,
    /** Counts `call` as cancelled if its response closes before it was finished. */
    watch(res: ServerResponse, call: Call) {
      res.once('close', () => {
        if (res.writableFinished) return;
        cancelled.push(call);
        const woken = waiters;
        waiters = [];
        for (const wake of woken) wake();
      });
    },
    /** Settles once `count` calls (all told, the earlier ones too) have been cancelled. */
    async untilCancelled(count = 1) {
      while (cancelled.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}
