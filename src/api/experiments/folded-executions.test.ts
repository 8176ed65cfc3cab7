import { describe, expect, it } from 'vitest';
import editAndReset from '../../domain/execution/fixtures/edit-and-reset.json';
import { executionStreamId } from '../../domain/execution/stream';
import type { RecordedEvent } from '../../eventstore';
import { toExecutionEvent } from '../../projections/project-execution-events';
import { executionAggregate } from '../executions';
import { FoldedExecutions } from './folded-executions';

const executionId = editAndReset[0]!.data.executionId as string;
const streamId = executionStreamId(executionId);
const recorded = editAndReset.map(
  (event, n): RecordedEvent => ({
    globalPosition: n + 1,
    transactionId: String(n + 1),
    streamId,
    streamPosition: event.position,
    eventId: `event-${n + 1}`,
    type: event.type,
    data: event.data,
    metadata: {},
    createdAt: '2026-11-22T21:57:26.000Z',
  }),
);

/** A log of the fixture's first `length` events, and every read asked of it. */
function logOf(length: number) {
  const log = { length, asked: [] as { streamId: string; after: number }[][] };
  const readAfter = async (from: { streamId: string; after: number }[]) => {
    log.asked.push(from);
    const read = new Map<string, RecordedEvent[]>();
    for (const { streamId: asked, after } of from) {
      const events = recorded
        .slice(0, log.length)
        .filter((e) => e.streamId === asked && e.streamPosition > after);
      if (events.length > 0) read.set(asked, events);
    }
    return read;
  };
  return { log, readAfter };
}

const foldedWhole = (length: number) =>
  recorded
    .slice(0, length)
    .map(toExecutionEvent)
    .reduce(executionAggregate.decider.evolve, executionAggregate.decider.initialState());

describe('FoldedExecutions', () => {
  it('reads an execution whole once, then only the events after what it folded, with the same state and usage', async () => {
    const { log, readAfter } = logOf(2);
    const folded = new FoldedExecutions(readAfter);

    const first = (await folded.read([executionId])).get(executionId)!;
    expect(first.state).toEqual(foldedWhole(2));
    expect(log.asked.at(-1)).toEqual([{ streamId, after: 0 }]);

    log.length = recorded.length;
    const second = (await folded.read([executionId, executionId])).get(executionId)!;
    expect(log.asked.at(-1)).toEqual([{ streamId, after: 2 }]);
    expect(second.state).toEqual(foldedWhole(recorded.length));
    // The usage of the runs whose start was folded in the first read and success in the second is counted.
    const succeeded = recorded.filter((e) => e.type === 'StepRunSucceeded');
    const durations = succeeded.reduce((sum, e) => sum + (e.data as { durationMs: number }).durationMs, 0);
    expect([...second.usage.values()].reduce((sum, used) => sum + used.durationMs, 0)).toBe(durations);

    const third = (await folded.read([executionId])).get(executionId)!;
    expect(log.asked.at(-1)).toEqual([{ streamId, after: recorded.length }]);
    expect(third).toEqual(second);
    // What the first read answered was not changed by the later folds.
    expect(first.state).toEqual(foldedWhole(2));
  });

  it('answers an execution without events as never started', async () => {
    const { readAfter } = logOf(0);
    const read = await new FoldedExecutions(readAfter).read([executionId]);
    expect(read.get(executionId)!.state).toEqual(executionAggregate.decider.initialState());
    expect(read.get(executionId)!.usage.size).toBe(0);
  });
});
