import { describe, expect, it } from 'vitest';
import { initialState } from '../../domain/execution';
import type { ExecutionEvent } from '../../domain/execution/types';
import { applyStreamEvent, type Execution, endedRunIds, newerExecution } from './execution-stream';

const at = '2026-01-01T00:00:00.000Z';

function execution(version: number): Execution {
  return { ...initialState(), exists: true, id: 'e1', userId: 'u1', flowId: 'f1', startedAt: at, version };
}

const stopped: ExecutionEvent = { type: 'ExecutionStopped', data: { at } };

describe('applyStreamEvent', () => {
  it('applies the next position with the domain evolve and moves the version on', () => {
    const outcome = applyStreamEvent(execution(3), 4, stopped);
    expect(outcome.kind).toBe('applied');
    if (outcome.kind !== 'applied') return;
    expect(outcome.execution.status).toBe('stopped');
    expect(outcome.execution.version).toBe(4);
  });

  it('ignores positions already applied', () => {
    expect(applyStreamEvent(execution(3), 3, stopped)).toEqual({ kind: 'duplicate' });
    expect(applyStreamEvent(execution(3), 1, stopped)).toEqual({ kind: 'duplicate' });
  });

  it('reports a gap with the position to read again from', () => {
    expect(applyStreamEvent(execution(3), 6, stopped)).toEqual({ kind: 'gap', after: 3 });
  });
});

describe('newerExecution', () => {
  it('keeps the cached state when a poll is not newer', () => {
    const cached = execution(5);
    expect(newerExecution(cached, execution(5))).toBe(cached);
    expect(newerExecution(cached, execution(4))).toBe(cached);
  });

  it('takes a newer poll, or any state of another execution', () => {
    const polled = execution(6);
    expect(newerExecution(execution(5), polled)).toBe(polled);
    const other = { ...execution(1), id: 'e2' };
    expect(newerExecution(execution(5), other)).toBe(other);
    expect(newerExecution(undefined, polled)).toBe(polled);
  });
});

describe('endedRunIds', () => {
  it('names the run that ended, or all runs when the work stops or restarts', () => {
    expect(
      endedRunIds({ type: 'StepRunFailed', data: { runId: 'r1', message: 'x', retryable: false, at } }),
    ).toEqual(['r1']);
    expect(endedRunIds(stopped)).toBe('all');
    expect(endedRunIds({ type: 'ResultApproved', data: { resultId: 'x', at } })).toEqual([]);
  });
});
