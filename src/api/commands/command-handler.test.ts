import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors';
import { ConcurrencyConflict, type EventStore, type NewEvent, type RecordedEvent } from '../../eventstore';
import { type Aggregate, CommandHandler } from './command-handler';

type Command = { type: 'Count' } | { type: 'RecordAnswer' };
type Event = { type: 'Counted' | 'AnswerRecorded'; data: null };

const counter: Aggregate<number, Command, Event, null> = {
  streamType: 'counter',
  streamPrefix: 'counter-',
  name: 'Counter',
  initialState: () => 0,
  evolve: (state) => state + 1,
  decide: (command) => [{ type: command.type === 'Count' ? 'Counted' : 'AnswerRecorded', data: null }],
  recordsOutcome: (command) => command.type === 'RecordAnswer',
  visibleTo: () => true,
  project: () => [],
};

/** A log whose stream moves on before each of the first `losses` appends: another writer always wins. */
function contendedStore(losses: number) {
  const stored: RecordedEvent[] = [];
  let version = 0;
  let lost = 0;
  let appends = 0;
  const store = {
    findKeyedCommand: async () => null,
    readStream: async () => ({ version, events: [] }),
    append: async (streamId: string, _type: string, expected: number | 'no_stream', events: NewEvent[]) => {
      appends++;
      if (lost < losses) {
        lost++;
        version++;
        throw new ConcurrencyConflict(streamId, expected, version);
      }
      const recorded = events.map((event, i) => ({
        globalPosition: stored.length + i + 1,
        transactionId: '1',
        streamId,
        streamPosition: version + i + 1,
        eventId: String(stored.length + i),
        type: event.type,
        data: event.data,
        metadata: event.metadata ?? {},
        createdAt: new Date().toISOString(),
      }));
      stored.push(...recorded);
      version += recorded.length;
      return { nextExpectedVersion: version, events: recorded, duplicate: false };
    },
  };
  return { handler: new CommandHandler(store as unknown as EventStore), stored, appends: () => appends };
}

describe('CommandHandler on a contended stream', () => {
  it('retries an outcome until it is stored: a model answer is never dropped', async () => {
    const { handler, stored, appends } = contendedStore(12);
    const handled = await handler.handle(
      counter,
      'c',
      'u',
      { type: 'RecordAnswer' },
      { context: () => null },
    );
    expect(handled.events).toEqual([{ type: 'AnswerRecorded', data: null }]);
    expect(stored.map((e) => e.type)).toEqual(['AnswerRecorded']);
    expect(appends()).toBe(13);
  });

  it('gives up on another command after a few conflicts, as a conflict the caller may retry', async () => {
    const { handler, stored } = contendedStore(12);
    const outcome = handler.handle(counter, 'c', 'u', { type: 'Count' }, { context: () => null });
    await expect(outcome).rejects.toBeInstanceOf(ConcurrencyConflict);
    await expect(outcome).rejects.not.toBeInstanceOf(DomainError);
    expect(stored).toEqual([]);
  });
});
