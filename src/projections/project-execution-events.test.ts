import { describe, expect, it } from 'vitest';
import { decider } from '../domain/execution/decider';
import {
  aStep,
  draft,
  EXECUTION_ID,
  executionStarted,
  fold,
  NOW,
  ranStep,
  stepRunStarted,
  stepRunSucceeded,
} from '../domain/execution/testing';
import type { ExecutionEvent } from '../domain/execution/types';
import { changesOf, type ProjectableEvent, runsChange } from './project-execution-events';
import { ReadModelBatch } from './read-model-batch';
import type { ReadModelChange } from './read-model-change';

const step = aStep(1);

const stepRunFailed = (runId: string, message: string): ExecutionEvent => ({
  type: 'StepRunFailed',
  data: { runId, message, retryable: true, at: NOW },
});

/** An execution with `runs` step runs, each with one result of 1,000 characters. */
function executionOf(runs: number) {
  const events: ExecutionEvent[] = [executionStarted([step], ['cache-1'])];
  for (let i = 0; i < runs; i++)
    events.push(...ranStep(step, `run-${i}`, 'cache-1', `result-${i}`, 'x'.repeat(1000)));
  return { state: fold(events), version: events.length };
}

const recorded = (events: ExecutionEvent[], from: number): ProjectableEvent[] =>
  events.map((event, i) => ({
    eventId: `event-${from + i + 1}`,
    streamId: `execution-${EXECUTION_ID}`,
    streamPosition: from + i + 1,
    type: event.type,
    data: event.data,
  }));

const size = (changes: ReadModelChange[]) => JSON.stringify(changes).length;

describe('the read-model changes of an execution', () => {
  it('of a step run on a long execution are no larger than on a new one: its runs change element by element', () => {
    const run = [stepRunStarted(step, 'run-new', { cacheItemId: 'cache-1' })];
    const short = executionOf(1);
    const long = executionOf(2000);
    const onShort = changesOf(EXECUTION_ID, short, recorded(run, short.version));
    const onLong = changesOf(EXECUTION_ID, long, recorded(run, long.version));
    // The long execution's runs and results hold over 2 MB; the changes stay what they are on a new one.
    expect(JSON.stringify(long.state).length).toBeGreaterThan(2_000_000);
    expect(size(onLong)).toBeLessThan(size(onShort) + 200);
    const row = onLong.find((change) => change.type === 'executionChanged');
    expect(row).toMatchObject({ from: long.version, position: long.version + 1 });
    expect(row?.type === 'executionChanged' && row.runs).toEqual({
      replaced: [],
      appended: [expect.objectContaining({ runId: 'run-new', status: 'running' })],
    });
  });

  it("of a run's outcome replace that run at its place", () => {
    const before = executionOf(3);
    const events = [
      stepRunStarted(step, 'run-a', { cacheItemId: 'cache-1' }),
      stepRunSucceeded('run-a', [draft('result-a', 'A')]),
    ];
    const changes = changesOf(EXECUTION_ID, before, recorded(events, before.version));
    const row = changes.find((change) => change.type === 'executionChanged');
    // Added and finished in one append: added as it ended.
    expect(row?.type === 'executionChanged' && row.runs).toEqual({
      replaced: [],
      appended: [expect.objectContaining({ runId: 'run-a', status: 'succeeded' })],
    });
    const failed = changesOf(
      EXECUTION_ID,
      before,
      recorded([stepRunFailed('run-1', 'down')], before.version),
    );
    const failedRow = failed.find((change) => change.type === 'executionChanged');
    expect(failedRow?.type === 'executionChanged' && failedRow.runs).toEqual({
      replaced: [
        { index: 1, run: expect.objectContaining({ runId: 'run-1', status: 'failed', message: 'down' }) },
      ],
      appended: [],
    });
  });

  it('of a stream from its start write the whole row, with every run', () => {
    const events = [executionStarted([step], ['cache-1']), ...ranStep(step, 'run-0', 'cache-1', 'r0', 'a')];
    const changes = changesOf(
      EXECUTION_ID,
      { state: decider.initialState(), version: 0 },
      recorded(events, 0),
    );
    const row = changes.find((change) => change.type === 'execution');
    expect(row?.type === 'execution' && (row.row.runs as { value: unknown }).value).toEqual(
      fold(events).runs,
    );
  });

  it('folded by a rebuild batch onto a row of the batch give the row the whole fold gives', () => {
    const all = [executionStarted([step], ['cache-1'])];
    for (let i = 0; i < 4; i++) all.push(...ranStep(step, `run-${i}`, 'cache-1', `result-${i}`, `text ${i}`));
    all.push(stepRunStarted(step, 'run-late', { cacheItemId: 'cache-1' }), stepRunFailed('run-late', 'no'));
    const split = 5;
    const first = changesOf(
      EXECUTION_ID,
      { state: decider.initialState(), version: 0 },
      recorded(all.slice(0, split), 0),
    );
    const second = changesOf(
      EXECUTION_ID,
      { state: fold(all.slice(0, split)), version: split },
      recorded(all.slice(split), split),
    );
    const batch = new ReadModelBatch();
    batch.add([...first, ...second]);
    const whole = new ReadModelBatch();
    whole.add(changesOf(EXECUTION_ID, { state: decider.initialState(), version: 0 }, recorded(all, 0)));
    expect(JSON.stringify(batch.encodeAdded())).toBe(JSON.stringify(whole.encodeAdded()));
  });
});

describe('runsChange', () => {
  it('names the runs replaced and the runs added', () => {
    const a = { runId: 'a' } as never;
    const b = { runId: 'b' } as never;
    const b2 = { runId: 'b', status: 'failed' } as never;
    const c = { runId: 'c' } as never;
    expect(runsChange([a, b], [a, b2, c])).toEqual({ replaced: [{ index: 1, run: b2 }], appended: [c] });
    expect(runsChange([a], [a])).toEqual({ replaced: [], appended: [] });
  });
});
