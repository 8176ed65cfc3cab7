import { randomUUID } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import { conflict, notFound } from '../../domain/errors';
import { ConcurrencyConflict, type EventStore, type RecordedEvent } from '../../eventstore';

/** An event as a decider emits it: data only; ids, positions and metadata are the store's. */
export interface DecidedEvent {
  type: string;
  data: unknown;
}

/** An aggregate's state and the stream position it reflects. */
export interface Loaded<State> {
  state: State;
  version: number;
}

/**
 * What the command handler needs to know of an event-sourced aggregate: its stream, its pure decider
 * (decide/evolve/initialState) and the read models its events write in the append's transaction.
 */
export interface Aggregate<State, Command, Event extends DecidedEvent, Context> {
  streamType: string;
  /** `streamPrefix + id` names an aggregate's stream. */
  streamPrefix: string;
  /** In messages: '{name} not found', '{name} already exists'. */
  name: string;
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State, context: Context): Event[];
  /** Whether the loaded state may be shown to the user (null: the system, e.g. the crash sweep). */
  visibleTo(state: State, userId: string | null): boolean;
  project(tx: TransactionSql, recorded: RecordedEvent[], before: Loaded<State>): Promise<void>;
}

export interface HandleOptions<State, Context> {
  /** The context the decider gets, built for each attempt from the state it decides on. */
  context: (state: State) => Context;
  /** The client's Idempotency-Key: a command seen before answers with its first outcome. */
  commandId?: string | undefined;
  /** The aggregate as the caller last loaded it: tried first, reloaded only on a conflict. */
  loaded?: Loaded<State> | undefined;
  /** The command writes a new stream: nothing to load, and a conflict means it exists already. */
  startsStream?: boolean;
  /** Checked before deciding; a thrown error ends the command. */
  guard?: (state: State) => void;
}

export interface Handled<State, Event> extends Loaded<State> {
  events: Event[];
}

const MAX_CONFLICT_RETRIES = 5;

/**
 * The one command path of every event-sourced aggregate: load the stream, decide, append with the read
 * models projected in the same transaction, retry on a concurrency conflict, answer a repeated command
 * with its first outcome.
 */
export class CommandHandler {
  private readonly appendedListeners: ((streamId: string) => void)[] = [];

  constructor(private readonly store: EventStore) {}

  /** Told of every stream a command of this process appended to, right after the commit. */
  onAppended(listener: (streamId: string) => void) {
    this.appendedListeners.push(listener);
  }

  async load<S, C, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    id: string,
    userId: string | null,
  ): Promise<Loaded<S>> {
    const { version, events } = await this.store.readStream(aggregate.streamPrefix + id);
    const state = events.map((e) => eventOf<E>(e)).reduce(aggregate.evolve, aggregate.initialState());
    if (!aggregate.visibleTo(state, userId)) throw notFound(`${aggregate.name} not found`);
    return { state, version };
  }

  async handle<S, C, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    id: string,
    userId: string,
    command: C,
    options: HandleOptions<S, X>,
  ): Promise<Handled<S, E>> {
    // Without a client key the command is new by construction: no lookup needed.
    const earlier = options.commandId ? await this.store.findCommand(options.commandId) : null;
    if (earlier?.[0]) {
      // A repeated command answers with its first outcome, on the stream it was first applied to.
      const firstId = earlier[0].streamId.slice(aggregate.streamPrefix.length);
      return { ...(await this.load(aggregate, firstId, userId)), events: earlier.map((e) => eventOf<E>(e)) };
    }
    const commandId = options.commandId ?? randomUUID();
    const streamId = aggregate.streamPrefix + id;
    let hint = options.loaded;
    for (let attempt = 0; ; attempt++) {
      const loaded = options.startsStream
        ? { state: aggregate.initialState(), version: 0 }
        : (hint ?? (await this.load(aggregate, id, userId)));
      hint = undefined;
      options.guard?.(loaded.state);
      const events = aggregate.decide(command, loaded.state, options.context(loaded.state));
      if (events.length === 0) return { ...loaded, events };
      try {
        const appended = await this.store.append(
          streamId,
          aggregate.streamType,
          loaded.version === 0 ? 'no_stream' : loaded.version,
          events.map((event) => ({ ...event, metadata: { userId, commandId, correlationId: commandId } })),
          // Appended at the loaded version, so the projector starts from the loaded state, not a read.
          { inTransaction: (tx, recorded) => aggregate.project(tx, recorded, loaded) },
        );
        for (const listener of this.appendedListeners) listener(streamId);
        if (appended.duplicate) {
          // The same command raced this one and won: its outcome stands.
          return {
            ...(await this.load(aggregate, id, userId)),
            events: appended.events.map((e) => eventOf<E>(e)),
          };
        }
        return {
          state: events.reduce(aggregate.evolve, loaded.state),
          version: appended.nextExpectedVersion,
          events,
        };
      } catch (error) {
        if (error instanceof ConcurrencyConflict && options.startsStream) {
          throw conflict(`${aggregate.name} already exists`);
        }
        if (error instanceof ConcurrencyConflict && attempt < MAX_CONFLICT_RETRIES) continue;
        throw error;
      }
    }
  }
}

const eventOf = <E extends DecidedEvent>(recorded: Pick<RecordedEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as E;
