import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors';
import { ConcurrencyConflict, type EventStore, type NewEvent, type RecordedEvent } from '../../eventstore';
import { type Aggregate, CommandHandler, startOfRun } from './command-handler';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry-policy';

/** These aggregates are never in a workspace. */
const NO_WORKSPACES = { roleOf: async () => null };

type Command = { type: 'Count' } | { type: 'RecordAnswer' };
type Event = { type: 'Counted' | 'AnswerRecorded'; data: null };

const counter: Aggregate<number, Command, Event, null> = {
  streamType: 'counter',
  streamPrefix: 'counter-',
  name: 'Counter',
  decider: {
    initialState: () => 0,
    evolve: (state) => state + 1,
    decide: (command) => [{ type: command.type === 'Count' ? 'Counted' : 'AnswerRecorded', data: null }],
  },
  snapshot: {
    shape: 'counter.1',
    encode: (state) => state,
    decode: (json) => (typeof json === 'number' ? json : null),
  },
  recordsOutcome: (command) => command.type === 'RecordAnswer',
  kind: 'personal',
  holderOf: () => ({ ownerId: 'u', workspaceId: null }),
  actionOf: () => 'change',
  project: () => [],
};

/** A log whose stream moves on before each of the first `losses` appends: another writer always wins. */
function contendedStore(losses: number, retry: RetryPolicy = DEFAULT_RETRY_POLICY) {
  const stored: RecordedEvent[] = [];
  let version = 0;
  let lost = 0;
  let appends = 0;
  const store = {
    findKeyedCommand: async () => null,
    readStream: async () => ({ version, events: [] }),
    readStreamFromSnapshot: async () => ({ version, snapshot: null, events: [] }),
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
  return {
    handler: new CommandHandler(store as unknown as EventStore, retry, NO_WORKSPACES),
    stored,
    appends: () => appends,
  };
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
  it('tries again as often, and an outcome for as long, as its retry policy says', async () => {
    const policy = { conflictRetries: 2, maxBackoffMs: 1, outcomeRetryMs: 0 };
    for (const type of ['Count', 'RecordAnswer'] as const) {
      const { handler, stored, appends } = contendedStore(12, policy);
      const outcome = handler.handle(counter, 'c', 'u', { type }, { context: () => null });
      await expect(outcome).rejects.toBeInstanceOf(ConcurrencyConflict);
      expect(stored).toEqual([]);
      expect(appends()).toBe(3);
    }
  });
});

type LampCommand = { type: 'Open'; owner: string } | { type: 'SwitchOn' } | { type: 'SwitchOff' };
type LampEvent =
  | { type: 'Opened'; data: { owner: string } }
  | { type: 'SwitchedOn' | 'SwitchedOff'; data: null };
type Lamp = { owner: string | null; on: boolean };

/** A lamp only its owner sees: switching on a lit lamp is refused, switching off a dark one does nothing. */
const lamp: Aggregate<Lamp, LampCommand, LampEvent, null> = {
  streamType: 'lamp',
  streamPrefix: 'lamp-',
  name: 'Lamp',
  decider: {
    initialState: () => ({ owner: null, on: false }),
    evolve: (state, event) =>
      event.type === 'Opened'
        ? { ...state, owner: event.data.owner }
        : { ...state, on: event.type === 'SwitchedOn' },
    decide: (command, state) => {
      if (command.type === 'Open') return [{ type: 'Opened', data: { owner: command.owner } }];
      if (command.type === 'SwitchOn') {
        if (state.on) throw new DomainError('rule_violated', 'The lamp is on already');
        return [{ type: 'SwitchedOn', data: null }];
      }
      return state.on ? [{ type: 'SwitchedOff', data: null }] : [];
    },
  },
  snapshot: { shape: 'lamp.1', encode: (state) => state, decode: (json) => json as Lamp },
  recordsOutcome: () => false,
  kind: 'personal',
  holderOf: (state) => (state.owner === null ? undefined : { ownerId: state.owner, workspaceId: null }),
  actionOf: () => 'change',
  project: () => [],
};

/**
 * An event log in memory that counts stream reads (whole, or after a version) and the events they gave;
 * `elsewhere` appends as another server process would.
 */
function logInMemory() {
  const streams = new Map<string, RecordedEvent[]>();
  let reads = 0;
  let wholeReads = 0;
  let eventsRead = 0;
  const write = (streamId: string, expected: number | 'no_stream', events: NewEvent[]) => {
    const stream = streams.get(streamId) ?? [];
    const at = expected === 'no_stream' ? 0 : expected;
    if (stream.length !== at) throw new ConcurrencyConflict(streamId, expected, stream.length);
    const recorded = events.map((event, i) => ({
      globalPosition: 0,
      transactionId: '1',
      streamId,
      streamPosition: at + i + 1,
      eventId: `${streamId}-${at + i + 1}`,
      type: event.type,
      data: event.data,
      metadata: event.metadata ?? {},
      createdAt: new Date().toISOString(),
    }));
    streams.set(streamId, [...stream, ...recorded]);
    return recorded;
  };
  const store = {
    findKeyedCommand: async () => null,
    readStreamFromSnapshot: async (streamId: string) => {
      reads++;
      wholeReads++;
      const events = streams.get(streamId) ?? [];
      eventsRead += events.length;
      return { version: events.length, snapshot: null, events };
    },
    writeSnapshot: async () => {},
    readStream: async (streamId: string, { after = 0, limit }: { after?: number; limit?: number } = {}) => {
      reads++;
      const stream = streams.get(streamId) ?? [];
      const events = stream.filter((event) => event.streamPosition > after).slice(0, limit);
      eventsRead += events.length;
      return { version: stream.length, events };
    },
    append: async (streamId: string, _type: string, expected: number | 'no_stream', events: NewEvent[]) => {
      const recorded = write(streamId, expected, events);
      return { nextExpectedVersion: recorded.at(-1)!.streamPosition, events: recorded, duplicate: false };
    },
  };
  return {
    handler: new CommandHandler(store as unknown as EventStore, DEFAULT_RETRY_POLICY, NO_WORKSPACES),
    reads: () => reads,
    wholeReads: () => wholeReads,
    eventsRead: () => eventsRead,
    elsewhere: (streamId: string, type: LampEvent['type']) => {
      const version = streams.get(streamId)?.length ?? 0;
      return write(streamId, version, [{ type, data: null }])[0]!;
    },
  };
}

describe('CommandHandler keeps the state it decided on', () => {
  const context = { context: () => null };
  async function openLamp() {
    const log = logInMemory();
    await log.handler.handle(
      lamp,
      'l',
      'ann',
      { type: 'Open', owner: 'ann' },
      { ...context, startsStream: true },
    );
    return log;
  }

  it('decides the next command on the kept state, with no read of the stream', async () => {
    const { handler, reads } = await openLamp();
    await handler.handle(lamp, 'l', 'ann', { type: 'SwitchOn' }, context);
    const off = await handler.handle(lamp, 'l', 'ann', { type: 'SwitchOff' }, context);
    expect(off).toMatchObject({ state: { on: false }, version: 3 });
    expect(await handler.recent(lamp, 'l', 'ann')).toMatchObject({ state: { on: false }, version: 3 });
    expect(reads()).toBe(0);
  });

  it('decides again on the stream when the kept state was out of date: refused, nothing to do, or appended', async () => {
    const { handler, reads, elsewhere } = await openLamp();
    // Lit elsewhere: on the kept (dark) state, Switch off would do nothing; on the stream it switches off.
    elsewhere('lamp-l', 'SwitchedOn');
    const off = await handler.handle(lamp, 'l', 'ann', { type: 'SwitchOff' }, context);
    expect(off).toMatchObject({ state: { on: false }, version: 3, events: [{ type: 'SwitchedOff' }] });
    expect(reads()).toBe(1);

    // Lit elsewhere again: the kept (dark) state lets Switch on through, its append is refused, then the
    // stream refuses it.
    elsewhere('lamp-l', 'SwitchedOn');
    await expect(handler.handle(lamp, 'l', 'ann', { type: 'SwitchOn' }, context)).rejects.toThrow(
      'The lamp is on already',
    );
    expect(reads()).toBe(2);

    // Switched off elsewhere: refused on the kept (lit) state, switched on as the stream stands.
    elsewhere('lamp-l', 'SwitchedOff');
    const on = await handler.handle(lamp, 'l', 'ann', { type: 'SwitchOn' }, context);
    expect(on).toMatchObject({ state: { on: true }, version: 6 });
    expect(reads()).toBe(3);
  });

  it('forgets a state once a later event of its stream is seen in the log, not for its own', async () => {
    const { handler, reads, elsewhere } = await openLamp();
    handler.seen('lamp-l', 1);
    await handler.recent(lamp, 'l', 'ann');
    expect(reads()).toBe(0);
    const lit = elsewhere('lamp-l', 'SwitchedOn');
    handler.seen(lit.streamId, lit.streamPosition);
    expect(await handler.recent(lamp, 'l', 'ann')).toMatchObject({ state: { on: true }, version: 2 });
    expect(reads()).toBe(1);
  });

  it('folds only the events after a kept state that is behind, never the whole stream again', async () => {
    const { handler, wholeReads, eventsRead, elsewhere } = await openLamp();
    for (let i = 0; i < 5; i++) {
      await handler.handle(lamp, 'l', 'ann', { type: 'SwitchOn' }, context);
      await handler.handle(lamp, 'l', 'ann', { type: 'SwitchOff' }, context);
    }
    const lit = elsewhere('lamp-l', 'SwitchedOn');
    handler.seen(lit.streamId, lit.streamPosition);
    const off = await handler.handle(lamp, 'l', 'ann', { type: 'SwitchOff' }, context);
    expect(off).toMatchObject({ state: { on: false }, version: 13, events: [{ type: 'SwitchedOff' }] });
    // One event read (the one appended elsewhere), not the thirteen of the stream.
    expect(eventsRead()).toBe(1);
    expect(wholeReads()).toBe(0);
  });

  it('reads the stream from its snapshot when the kept state is a snapshot interval or more behind', async () => {
    const { handler, wholeReads, elsewhere } = await openLamp();
    const everyFour = { ...lamp, snapshotEvery: 4 };
    for (let i = 0; i < 3; i++) {
      elsewhere('lamp-l', 'SwitchedOn');
      elsewhere('lamp-l', 'SwitchedOff');
    }
    handler.seen('lamp-l', 7);
    const on = await handler.handle(everyFour, 'l', 'ann', { type: 'SwitchOn' }, context);
    expect(on).toMatchObject({ state: { on: true }, version: 8 });
    expect(wholeReads()).toBe(1);
  });

  it('never shows a kept state to another user: their id is not found', async () => {
    const { handler, reads } = await openLamp();
    await expect(handler.recent(lamp, 'l', 'bob')).rejects.toThrow('Không tìm thấy lamp');
    await expect(handler.handle(lamp, 'l', 'bob', { type: 'SwitchOn' }, context)).rejects.toThrow(
      'Không tìm thấy lamp',
    );
    expect(await handler.recent(lamp, 'l', 'ann')).toMatchObject({ state: { on: false } });
    expect(reads()).toBe(1);
  });
});

describe('CommandHandler when the database goes away under an append', () => {
  /** A run's start: its one event names the run. */
  type Start = { type: 'Start'; data: { runId: string } };
  type Started = { type: 'Started'; data: { runId: string } };
  const runs: Aggregate<string[], Start, Started, null> = {
    ...(counter as unknown as Aggregate<string[], Start, Started, null>),
    streamPrefix: 'runs-',
    decider: {
      initialState: () => [],
      evolve: (state, event) => [...state, event.data.runId],
      decide: (command) => [{ type: 'Started', data: command.data }],
    },
    recordsOutcome: () => false,
  };
  const away = (code: string) => Object.assign(new Error(`database away (${code})`), { code });

  /**
   * A log whose append fails with `error` after storing its events when `committed`, and whose first
   * `outage` reads fail as the database being away.
   */
  function lostAnswerStore(error: Error, committed: boolean, outage = 2) {
    const stored: RecordedEvent[] = [];
    let reads = 0;
    const read = async () => {
      reads++;
      if (reads <= outage) throw away('ECONNREFUSED');
      return { version: stored.length, events: stored };
    };
    const store = {
      findKeyedCommand: async () => null,
      readStream: read,
      readStreamFromSnapshot: async () => ({ ...(await read()), snapshot: null }),
      append: async (streamId: string, _type: string, _expected: unknown, events: NewEvent[]) => {
        if (committed)
          stored.push(
            ...events.map((event, i) => ({
              globalPosition: stored.length + i + 1,
              transactionId: '1',
              streamId,
              streamPosition: stored.length + i + 1,
              eventId: `e${i}`,
              type: event.type,
              data: event.data,
              metadata: event.metadata ?? {},
              createdAt: new Date().toISOString(),
            })),
          );
        throw error;
      },
    };
    return {
      handler: new CommandHandler(store as unknown as EventStore, DEFAULT_RETRY_POLICY, NO_WORKSPACES),
      reads: () => reads,
    };
  }
  const start = { type: 'Start', data: { runId: 'r1' } } as const;
  const options = (storedAs?: (event: { type: string; data: unknown }) => boolean) => ({
    context: () => null,
    startsStream: true,
    ...(storedAs ? { storedAs } : {}),
  });
  const itsStart = startOfRun('Started', 'r1');

  it('answers a start whose commit was made though its answer was lost, once the database is back', async () => {
    const { handler, reads } = lostAnswerStore(away('CONNECTION_CLOSED'), true);
    const started = await handler.handle(runs, 'x', 'u', start, options(itsStart));
    expect(started).toMatchObject({
      state: ['r1'],
      version: 1,
      events: [{ type: 'Started', data: { runId: 'r1' } }],
    });
    // It waited through the reads the outage refused.
    expect(reads()).toBeGreaterThan(2);
  });

  it('keeps the database error when the start was not stored, or when it cannot tell its events', async () => {
    const notStored = lostAnswerStore(away('CONNECTION_CLOSED'), false);
    await expect(notStored.handler.handle(runs, 'x', 'u', start, options(itsStart))).rejects.toThrow(
      'CONNECTION_CLOSED',
    );
    const untold = lostAnswerStore(away('CONNECTION_CLOSED'), true);
    await expect(untold.handler.handle(runs, 'x', 'u', start, options())).rejects.toThrow(
      'CONNECTION_CLOSED',
    );
    expect(untold.reads()).toBe(0);
  });

  it('does not look when nothing was sent: the connection was never made', async () => {
    const { handler, reads } = lostAnswerStore(away('ECONNREFUSED'), false);
    await expect(handler.handle(runs, 'x', 'u', start, options(itsStart))).rejects.toThrow('ECONNREFUSED');
    expect(reads()).toBe(0);
  });
});
