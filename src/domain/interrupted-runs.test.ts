import { describe, expect, it } from 'vitest';
import { type CrashSweepFacts, isInterrupted } from './interrupted-runs';

const facts: CrashSweepFacts = {
  startedBefore: '2026-05-01T09:58:00.000Z',
  abandonedBefore: '2026-05-01T09:55:00.000Z',
  thisInstance: 3,
  goneInstances: [1],
};
const ABANDONED = '2026-05-01T09:00:00.000Z';
const OLD = '2026-05-01T09:56:00.000Z';
const YOUNG = '2026-05-01T09:59:00.000Z';

describe('a run a crash left unfinished', () => {
  it('is one at once when its instance has died, however young', () => {
    expect(isInterrupted({ startedAt: YOUNG, instanceId: 1 }, false, facts)).toBe(true);
  });

  it('is not one while another live instance may still be making it, past the model timeout too', () => {
    expect(isInterrupted({ startedAt: YOUNG, instanceId: 2 }, false, facts)).toBe(false);
    expect(isInterrupted({ startedAt: OLD, instanceId: 2 }, false, facts)).toBe(false);
  });

  it('is one once no live process can be making it any more, whatever the locks say', () => {
    expect(isInterrupted({ startedAt: ABANDONED, instanceId: 2 }, false, facts)).toBe(true);
  });

  it('of this instance, or naming none, is one once older than the model timeout and not being made here', () => {
    for (const instanceId of [3, null, undefined]) {
      expect(isInterrupted({ startedAt: OLD, instanceId }, false, facts)).toBe(true);
      expect(isInterrupted({ startedAt: YOUNG, instanceId }, false, facts)).toBe(false);
      expect(isInterrupted({ startedAt: OLD, instanceId }, true, facts)).toBe(false);
    }
  });
});
