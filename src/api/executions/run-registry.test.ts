import { describe, expect, it } from 'vitest';
import { RunRegistry } from './run-registry';

describe('RunRegistry', () => {
  it('a Stop aborts the runs of its execution started before it, and no other', () => {
    const runs = new RunRegistry();
    const early = runs.track('e1', 'r1', 3);
    const other = runs.track('e2', 'r2', 3);
    runs.stopped('e1', 5);
    expect(early.signal.aborted).toBe(true);
    expect(early.signal.reason).toBe('stopped');
    expect(other.signal.aborted).toBe(false);
  });

  it('a Stop seen before its run was tracked aborts the run as it is tracked', () => {
    const runs = new RunRegistry();
    runs.stopped('e1', 7);
    expect(runs.track('e1', 'r1', 6).signal.aborted).toBe(true);
  });

  it('a Stop seen late never aborts a run started after it (after a Reset)', () => {
    const runs = new RunRegistry();
    const later = runs.track('e1', 'r1', 9);
    runs.stopped('e1', 7);
    expect(later.signal.aborted).toBe(false);
    expect(runs.track('e1', 'r2', 10).signal.aborted).toBe(false);
  });

  it('a stopping process interrupts every run; an ended run is no longer running', () => {
    const runs = new RunRegistry();
    const one = runs.track('e1', 'r1', 1);
    const two = runs.track('s1', 'r2', 1);
    expect([runs.isRunning('e1', 'r1'), runs.isRunning('s1', 'r2')]).toEqual([true, true]);
    runs.interruptAll();
    expect([one.signal.reason, two.signal.reason]).toEqual(['interrupted', 'interrupted']);
    one.untrack();
    expect(runs.isRunning('e1', 'r1')).toBe(false);
    expect(runs.isRunning('s1', 'r2')).toBe(true);
  });

  it('a call begun after the process cut its calls off is cut off as it begins', () => {
    const runs = new RunRegistry();
    runs.interruptAll();
    const late = runs.track('e1', 'r3', 5);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe('interrupted');
  });
});
