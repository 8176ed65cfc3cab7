import { randomUUID } from 'node:crypto';
import type { TransactionSql } from 'postgres';
import type { Decider } from '../../domain/decider';
import { conflict } from '../../domain/errors';
import { SNAPSHOT_EVERY, type StateSnapshot, snapshotDue } from '../../domain/snapshot';
import {
  ConcurrencyConflict,
  type EventStore,
  type KeyedCommand,
  type RecordedEvent,
  type Statement,
} from '../../eventstore';
import { type Action, type Actor, type Holder, type RecordKind, type Role, requireMay } from '../access';
import { throughOutage } from '../database/through-outage';
import { IdempotencyKeyReused, mayHaveBeenStored } from '../http/errors';
import { commandRetried } from '../telemetry/metrics';
import { KeptStates } from './kept-states';
import type { RetryPolicy } from './retry-policy';

/** An event as a decider emits it: data only; ids, positions and metadata are the store's. */
export interface DecidedEvent {
  type: string;
  data: unknown;
}

/** `storedAs` for a run's start: its event of `type` naming `runId`. */
export const startOfRun =
  (type: string, runId: string) =>
  (event: DecidedEvent): boolean =>
    event.type === type && (event.data as { runId?: unknown } | null)?.runId === runId;

/** An aggregate's state and the stream position it reflects. */
export interface Loaded<State> {
  state: State;
  version: number;
}

/**
 * What the command handler needs to know of an event-sourced aggregate: its stream, its pure decider
 * and the read models its events write in the append's transaction.
 */
export interface Aggregate<State, Command extends { type: string }, Event extends DecidedEvent, Context> {
  streamType: string;
  /** `streamPrefix + id` names an aggregate's stream. */
  streamPrefix: string;
  /** In messages: '{name} not found', '{name} already exists'. */
  name: string;
  decider: Decider<State, Command, Event, Context>;
  /** How its state is stored as a snapshot and read back (see StateSnapshot), next to its decider. */
  snapshot: StateSnapshot<State>;
  /** A snapshot every this many events of a stream; the handler's default (SNAPSHOT_EVERY) when absent; 0: none. */
  snapshotEvery?: number;
  /**
   * Whether the command records the outcome of work already done (a model's answer): such a command
   * commutes with the others of its stream, so it is retried on conflicts until it is stored, never dropped.
   */
  recordsOutcome(command: Command): boolean;
  /** What kind of record it is, for the access rule. */
  kind: RecordKind;
  /** Whose the loaded record is: its owner and its workspace (null: none); undefined: there is no such record. */
  holderOf(state: State): { ownerId: string | null; workspaceId: string | null } | undefined;
  /**
   * What the command does to the record, for the access rule (read: it only records work already allowed);
   * null: nobody's role decides, the decider does (a workspace's invitation is accepted by one who is not a
   * member yet, by the token they were sent).
   */
  actionOf(command: Command, actor: string): Action | null;
  /** The actor's role in the workspace the record is, when the record itself knows it (a workspace's members). */
  roleIn?(state: State, actor: string): Role | null;
  /**
   * The statements that write the read models, built at once: they are sent with the append's commit. They
   * may change rows from `before`, the state the command decided on; `whole`: they write them from the
   * state after the events over whatever is there (a read model was found elsewhere: readModelElsewhere).
   */
  project(tx: TransactionSql, recorded: RecordedEvent[], before: Loaded<State>, whole: boolean): Statement[];
  /**
   * Whether an append failed because a read model did not hold `before` (a row at another stream position
   * than the version loaded): the command is then decided again on the stream as read and its read models
   * written whole, so a read model that left its log is brought back by the next command instead of every
   * later change carrying the difference on.
   */
  readModelElsewhere?(error: unknown): boolean;
}

export interface HandleOptions<State, Context> {
  /**
   * The context the decider gets, built for each attempt from the state it decides on, its version and the
   * actor's role in the record's workspace as the access check read it (undefined: not read, or no workspace).
   */
  context: (state: State, version: number, role: Role | null | undefined) => Context;
  /**
   * The client's Idempotency-Key, unique per user: a command seen before answers with its first outcome,
   * and it names the command in the events' metadata.
   */
  commandId?: string | undefined;
  /** The aggregate as the caller last loaded it: tried first, reloaded only on a conflict. */
  loaded?: Loaded<State> | undefined;
  /** The command writes a new stream: nothing to load, and a conflict means it exists already. */
  startsStream?: boolean;
  /**
   * Checked before deciding, on each state the command is decided on with its version; a thrown error ends
   * the command. Since the events are appended at that version, what the guard checked still holds when they
   * are stored (a client's If-Match, say).
   */
  guard?: (state: State, version: number) => void;
  /**
   * The caller's own writes that must commit with the events, or not at all (not a read model: never
   * replayed), given the state the events lead to.
   */
  withEvents?: (tx: TransactionSql, after: State) => Statement;
  /**
   * Tells the command's events in the stream (by the new run's id they name), for a command that leaves
   * something only this process will end (a run it starts): when the append's answer is lost with the
   * database, its commit may still have been made. The handler then waits for the database (through the
   * outage) and looks: found, the command answers as if its answer had come; not found, the database's
   * error stands (503: send again). Other commands leave that to the client's Idempotency-Key.
   */
  storedAs?: (event: DecidedEvent) => boolean;
}

/** Where the events of a command come from, for a reaction: the stream's type and the record's workspace. */
export interface EventSource {
  streamType: string;
  /** The workspace the record is in after the events; null: none. */
  workspaceId: string | null;
  /** The record's state after each event, in the events' order (a webhook's payload tells how things stand). */
  states: readonly unknown[];
}

/**
 * Writes another part of the server adds to the transaction of every command whose events call for them
 * (a notification's job): they commit with the events, or not at all. Built at once, like a projection.
 */
export type EventReaction = (
  tx: TransactionSql,
  recorded: RecordedEvent[],
  source: EventSource,
) => Statement[];

export interface Handled<State, Event> extends Loaded<State> {
  events: Event[];
  /**
   * The command was seen before (its Idempotency-Key): `events` are its first answer's, stored then, and the
   * state is the aggregate's now. What was done once for them (a span, a notice) is not done again.
   */
  repeated?: true;
}

/**
 * The one command path of every event-sourced aggregate: load the stream, decide, append with the read
 * models projected in the same transaction, retry on a concurrency conflict, answer a repeated command
 * with its first outcome.
 */
export class CommandHandler {
  private readonly reactions: EventReaction[] = [];
  private readonly kept = new KeptStates();
  private readonly snapshotEvery: number;

  constructor(
    private readonly store: EventStore,
    /** When a command is tried again on a conflict, and for how long (DEFAULT_RETRY_POLICY for the server). */
    readonly retry: Readonly<RetryPolicy>,
    /** A user's role in a workspace (null: not a member), asked only of records in a workspace. */
    private readonly roles: WorkspaceRoles,
    /** `snapshotEvery`: the aggregates' default interval of snapshots (SNAPSHOT_EVERY); 0: none. */
    options: { snapshotEvery?: number } = {},
  ) {
    this.snapshotEvery = options.snapshotEvery ?? SNAPSHOT_EVERY;
  }

  /** Adds writes to the transaction of every command from now on (see EventReaction); `followers` calls it. */
  react(reaction: EventReaction) {
    this.reactions.push(reaction);
  }

  /** The aggregate as its stream has it now, when the user may read it (null: the system). */
  async load<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    id: string,
    userId: string | null,
  ): Promise<Loaded<S>> {
    const loaded = await this.read(aggregate, id);
    await this.require(aggregate, loaded.state, userId, 'read');
    // Kept only once shown to be the user's: ids probed at random fill nothing.
    this.kept.keep(aggregate.streamPrefix + id, loaded);
    return loaded;
  }

  /**
   * The aggregate folded from its stream, whoever may see it: the caller asks the access rule. Folded from
   * the state this process kept of it (even one behind) with the events after it; else from the stream's
   * newest snapshot of the aggregate's shape on, or from its start when there is none or it
   * cannot be decoded; a load that had to fold a snapshot's interval or more stores one at its version.
   */
  private async read<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    id: string,
  ): Promise<Loaded<S>> {
    const streamId = aggregate.streamPrefix + id;
    const { evolve, initialState } = aggregate.decider;
    const kept = this.kept.behindOrNot<S>(streamId);
    let version: number;
    let events: RecordedEvent[];
    let from: S | null = null;
    // This process's own state of the stream as of its version, when it has one and it is less than a
    // snapshot's interval behind: only the events after it. Further behind, a snapshot is nearer.
    const every = this.everyOf(aggregate);
    const after =
      kept &&
      (await this.store.readStream(
        streamId,
        every > 0 ? { after: kept.version, limit: every } : { after: kept.version },
      ));
    if (
      kept &&
      after &&
      after.version >= kept.version &&
      after.version - kept.version === after.events.length
    ) {
      ({ version, events } = after);
      from = kept.state;
    } else {
      const read = await this.store.readStreamFromSnapshot(streamId, aggregate.snapshot.shape);
      ({ version, events } = read);
      from =
        read.snapshot && read.snapshot.version <= version ? decoded(aggregate, read.snapshot.state) : null;
      if (read.snapshot !== null && from === null) {
        // Of another make than this decider's, or written wrong: a cache that cannot be read is not read.
        ({ version, events } = await this.store.readStream(streamId));
      }
    }
    const state = events.map((e) => eventOf<E>(e)).reduce(evolve, from ?? initialState());
    if (every > 0 && events.length >= every) {
      const snapshot = {
        streamId,
        shape: aggregate.snapshot.shape,
        version,
        state: aggregate.snapshot.encode(state),
      };
      // A cache: when it cannot be written, the next load folds these events again, and nothing else is lost.
      await this.store.writeSnapshot(snapshot).catch(() => {});
    }
    return { state, version };
  }

  private everyOf<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
  ) {
    return aggregate.snapshotEvery ?? this.snapshotEvery;
  }

  /**
   * The statement storing the aggregate's snapshot when the append from `before` to the recorded events
   * crosses a multiple of its interval: the state folded from the events as recorded (through JSON, as a load
   * reads them), written in the append's transaction so that it is stored exactly when the events are.
   */
  private snapshotOf<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    tx: TransactionSql,
    before: Loaded<S>,
    recorded: RecordedEvent[],
  ): Statement[] {
    const last = recorded.at(-1);
    if (last === undefined || !snapshotDue(before.version, last.streamPosition, this.everyOf(aggregate)))
      return [];
    const state = recorded.map((e) => eventOf<E>(e)).reduce(aggregate.decider.evolve, before.state);
    const { streamId, streamPosition: version } = last;
    const snapshot = {
      streamId,
      shape: aggregate.snapshot.shape,
      version,
      state: aggregate.snapshot.encode(state),
    };
    return [this.store.writeSnapshot(snapshot, tx)];
  }

  /**
   * The aggregate as this process last knew it, or as read: for a caller that needs it before its command
   * (its ids, what to read next), where a state a moment old is as good, since the command is decided
   * again on the stream if it moved on. Never for an answer that must show the latest state.
   */
  async recent<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    id: string,
    userId: string | null,
  ): Promise<Loaded<S>> {
    const kept = this.kept.get<S>(aggregate.streamPrefix + id);
    if (kept === undefined) return this.load(aggregate, id, userId);
    await this.require(aggregate, kept.state, userId, 'read');
    return kept;
  }

  /**
   * Throws the access rule's refusal unless `actor` may do `action` to the loaded record: 404 to whoever may
   * not even read it, 403 to a member of its workspace whose role does not allow the action.
   */
  async require<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    state: S,
    actor: Actor,
    action: Action,
  ): Promise<Role | null | undefined> {
    const holder = await this.holder(aggregate, state, actor);
    requireMay(actor, action, aggregate.kind, holder, aggregate.name);
    // The role it was allowed with, read once: the decider's context has it too.
    return holder !== null && typeof holder === 'object' ? holder.role : undefined;
  }

  /**
   * Throws the access rule's refusal unless `actor` may do `action` to records of `kind` in the workspace
   * (a flow made in it, or moved into it): 404 `Workspace not found` to a non-member, 403 to a member whose
   * role does not allow it.
   */
  async requireIn(workspaceId: string, actor: string, action: Action, kind: RecordKind): Promise<void> {
    const role = await this.roles.roleOf(workspaceId, actor);
    // No role: the access rule's 404 names the workspace.
    requireMay(actor, action, kind, { workspaceId, role }, 'Workspace');
  }

  private async holder<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    state: S,
    actor: Actor,
  ): Promise<Holder | undefined> {
    const held = aggregate.holderOf(state);
    if (held === undefined) return undefined;
    const { ownerId, workspaceId } = held;
    if (workspaceId === null) return ownerId;
    if (actor === null) return { workspaceId, role: null };
    const role = aggregate.roleIn
      ? aggregate.roleIn(state, actor)
      : await this.roles.roleOf(workspaceId, actor);
    return { workspaceId, role };
  }

  /** An event at `position` of the stream was seen in the log (the tailer's, whichever process appended it). */
  seen(streamId: string, position: number) {
    this.kept.seen(streamId, position);
  }

  /**
   * Handles a command, in three concerns: idempotency (a key seen before answers its first outcome, here),
   * the decision on one state (`decideOn`: access, guard, decider) and the append that stores it, tried again
   * while the stream moves under it (`decideAndAppend`).
   */
  async handle<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    id: string,
    userId: string,
    command: C,
    options: HandleOptions<S, X>,
  ): Promise<Handled<S, E>> {
    const key = options.commandId;
    // Without a client key the command is new by construction: no lookup needed.
    const earlier = key ? await this.store.findKeyedCommand(userId, key) : null;
    if (earlier) return this.repeated(aggregate, userId, command, earlier);
    let outcome: Handled<S, E> | { duplicateAt: number };
    try {
      outcome = await this.decideAndAppend(aggregate, id, userId, command, options);
    } catch (error) {
      const { storedAs } = options;
      if (!storedAs || !mayHaveBeenStored(error)) throw error;
      const stored = await throughOutage(() =>
        this.storedMeanwhile(aggregate, id, userId, options, storedAs),
      );
      if (stored === null) throw error;
      return stored;
    }
    if (!('duplicateAt' in outcome)) return outcome;
    // A request with the same key raced this one and committed first: its outcome stands.
    const first = key && (await this.store.findKeyedCommand(userId, key));
    if (!first)
      throw new ConcurrencyConflict(aggregate.streamPrefix + id, outcome.duplicateAt, outcome.duplicateAt);
    return this.repeated(aggregate, userId, command, first);
  }

  /**
   * The command's events if its append was stored though its answer was lost (`storedAs` finds them after the
   * version the caller loaded), with the aggregate as the stream has it now; null when they are not there.
   */
  private async storedMeanwhile<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    id: string,
    userId: string,
    options: HandleOptions<S, X>,
    storedAs: (event: DecidedEvent) => boolean,
  ): Promise<Handled<S, E> | null> {
    const after = options.startsStream ? 0 : (options.loaded?.version ?? 0);
    const { events } = await this.store.readStream(aggregate.streamPrefix + id, { after });
    const found = events.find((event) => storedAs({ type: event.type, data: event.data }));
    if (found === undefined) return null;
    const itsCommand = events.filter((event) => event.metadata.commandId === found.metadata.commandId);
    return { ...(await this.load(aggregate, id, userId)), events: itsCommand.map((e) => eventOf<E>(e)) };
  }

  /**
   * Decides the command on the stream and appends what it decided with its read models and reactions, in one
   * transaction; decided again on the stream as it is when another command won it meanwhile (a few times, or
   * for a while when the command records a model call's outcome). `duplicateAt`: the command's key was taken
   * by a request that raced it.
   */
  private async decideAndAppend<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    id: string,
    userId: string,
    command: C,
    options: HandleOptions<S, X>,
  ): Promise<Handled<S, E> | { duplicateAt: number }> {
    const key = options.commandId;
    const idempotency = key ? { scope: userId, key, commandType: command.type } : undefined;
    const commandId = key ?? randomUUID();
    const streamId = aggregate.streamPrefix + id;
    // A first try that may be out of date: the caller's state, or the one this process kept.
    let hint: Loaded<S> | undefined = options.startsStream
      ? undefined
      : (options.loaded ?? this.kept.get<S>(streamId));
    const untilStored = aggregate.recordsOutcome(command);
    const since = Date.now();
    let whole = false;
    for (let attempt = 0; ; attempt++) {
      const fromHint = hint !== undefined;
      const loaded = options.startsStream
        ? { state: aggregate.decider.initialState(), version: 0 }
        : (hint ?? (await this.read(aggregate, id)));
      hint = undefined;
      let events: E[] | undefined;
      try {
        events = await this.decideOn(aggregate, loaded, userId, command, options);
      } catch (refusal) {
        if (!fromHint) throw refusal;
      }
      // Refused, or nothing to do, on a state that may be out of date: decided again on the stream as it is
      // (a Stop finding nothing to stop must not miss what another process started).
      if (fromHint && (events === undefined || events.length === 0)) {
        attempt--;
        continue;
      }
      if (events === undefined || events.length === 0) return { ...loaded, events: [] };
      const states: S[] = [];
      const decided = events.reduce((state: S, event: E) => {
        const next = aggregate.decider.evolve(state, event);
        states.push(next);
        return next;
      }, loaded.state);
      const source: EventSource = {
        streamType: aggregate.streamType,
        workspaceId: aggregate.holderOf(decided)?.workspaceId ?? null,
        states,
      };
      try {
        const appended = await this.store.append(
          streamId,
          aggregate.streamType,
          loaded.version === 0 ? 'no_stream' : loaded.version,
          events.map((event) => ({ ...event, metadata: { userId, commandId, correlationId: commandId } })),
          // Appended at the loaded version, so the projector starts from the loaded state, not a read.
          {
            withStatements: (tx, recorded) => [
              ...aggregate.project(tx, recorded, loaded, whole),
              ...(options.withEvents ? [options.withEvents(tx, decided)] : []),
              ...this.reactions.flatMap((reaction) => reaction(tx, recorded, source)),
              ...this.snapshotOf(aggregate, tx, loaded, recorded),
            ],
            idempotency,
          },
        );
        if (appended.duplicate) return { duplicateAt: loaded.version };
        const after = { state: decided, version: appended.nextExpectedVersion };
        this.kept.keep(streamId, after);
        return { ...after, events };
      } catch (error) {
        if (error instanceof ConcurrencyConflict && options.startsStream) {
          throw conflict(`${aggregate.name} đã tồn tại`);
        }
        if (!whole && aggregate.readModelElsewhere?.(error)) {
          // Nothing was stored: written again once, its read models whole, on the stream as it is.
          whole = true;
          attempt--;
          continue;
        }
        if (!(error instanceof ConcurrencyConflict)) throw error;
        const { conflictRetries, maxBackoffMs, outcomeRetryMs } = this.retry;
        const retry = (untilStored && Date.now() - since < outcomeRetryMs) || attempt < conflictRetries;
        if (!retry) throw error;
        // Another command won the stream: step aside for a random moment, so that many commands sent at
        // once spread out instead of colliding again.
        commandRetried(aggregate.streamType);
        await backOff(attempt, maxBackoffMs);
      }
    }
  }

  /**
   * The command decided on one state: the access rule first (asked of every state it is decided on: 404 when
   * the user may not even read the record, else 403), then the caller's guard, then the decider, whose context
   * has the role the access check read.
   */
  private async decideOn<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    loaded: Loaded<S>,
    userId: string,
    command: C,
    options: HandleOptions<S, X>,
  ): Promise<E[]> {
    const action = aggregate.actionOf(command, userId);
    const role =
      !options.startsStream && action !== null
        ? await this.require(aggregate, loaded.state, userId, action)
        : undefined;
    options.guard?.(loaded.state, loaded.version);
    return aggregate.decider.decide(
      command,
      loaded.state,
      options.context(loaded.state, loaded.version, role),
    );
  }

  /** A key seen before: the first outcome, on the stream it was applied to, if it was this command. */
  private async repeated<S, C extends { type: string }, E extends DecidedEvent, X>(
    aggregate: Aggregate<S, C, E, X>,
    userId: string,
    command: C,
    first: KeyedCommand,
  ): Promise<Handled<S, E>> {
    if (!first.streamId.startsWith(aggregate.streamPrefix) || first.commandType !== command.type) {
      throw new IdempotencyKeyReused();
    }
    const firstId = first.streamId.slice(aggregate.streamPrefix.length);
    return {
      ...(await this.load(aggregate, firstId, userId)),
      events: first.events.map((e) => eventOf<E>(e)),
      repeated: true,
    };
  }
}

/** A random wait that grows with the attempts, up to `maxMs`. */
const backOff = (attempt: number, maxMs: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(maxMs, 2 ** (attempt + 1))));

/** Where the command handler learns a user's role in a workspace. */
export interface WorkspaceRoles {
  roleOf(workspaceId: string, userId: string): Promise<Role | null>;
}

/** The state a stored snapshot holds; null when the aggregate's decode refuses it. */
function decoded<S, C extends { type: string }, E extends DecidedEvent, X>(
  aggregate: Aggregate<S, C, E, X>,
  json: unknown,
): S | null {
  try {
    return json === undefined ? null : aggregate.snapshot.decode(json);
  } catch {
    return null;
  }
}

const eventOf = <E extends DecidedEvent>(recorded: Pick<RecordedEvent, 'type' | 'data'>) =>
  ({ type: recorded.type, data: recorded.data }) as E;
