import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { Decider } from './decider';
import { DomainError, type ProblemKind } from './errors';
import { canonicalJson, type StateSnapshot } from './snapshot';

/**
 * What a command is decided with in a test: a value, or one made from the state the history folds to and its
 * version (the number of events in it), as the command handler makes it for each attempt.
 */
export type GivenContext<State, Context> = Context | ((state: State, version: number) => Context);

/** The state a history folds to, from the decider's initial state or from `state`. */
export const fold = <State, Event>(
  decider: Pick<Decider<State, unknown, Event, unknown>, 'initialState' | 'evolve'>,
  events: readonly Event[],
  state: State = decider.initialState(),
) => events.reduce(decider.evolve, state);

/**
 * given(decider, history, context).when(command).thenEmits(events) / .thenThrows(kind, message): a decider is
 * judged on the events it emits for a history, never on a database. The same for every aggregate.
 */
export function given<State, Command, Event, Context>(
  decider: Decider<State, Command, Event, Context>,
  history: readonly NoInfer<Event>[],
  context: GivenContext<State, NoInfer<Context>>,
) {
  const state = fold(decider, history);
  // Made again for each decision, so that ids counted by the context start over.
  const contextOf = () =>
    typeof context === 'function'
      ? (context as (state: State, version: number) => Context)(state, history.length)
      : context;
  return {
    state,
    when(command: Command) {
      const run = () => decider.decide(command, state, contextOf());
      return {
        /** The events, for assertions on part of them. */
        events: run,
        /** The events are exactly these; returns them with the state they lead to. */
        thenEmits(expected: Event[]) {
          const events = run();
          expect(events).toEqual(expected);
          return { events, state: fold(decider, events, state) };
        },
        /** The command is refused with a DomainError of this kind (and a message that matches, if given). */
        thenThrows(kind: ProblemKind, message?: string | RegExp) {
          let error: unknown;
          try {
            run();
          } catch (caught) {
            error = caught;
          }
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).kind).toBe(kind);
          if (message !== undefined) expect((error as Error).message).toMatch(message);
        },
      };
    },
  };
}

/**
 * Checks that every state of the histories' folds (the initial one too) comes back equal, fields and all,
 * once encoded, stored as JSON text and decoded; returns a hash of those states' canonical JSON. A decider's
 * snapshot test holds the hash, with the shape, to stored values: a change to the state or to evolve
 * changes the hash, and whoever makes it bumps the shape (so old snapshots go unread) with the new hash.
 */
export function snapshotFingerprint<State, Event>(
  decider: Pick<Decider<State, unknown, Event, unknown>, 'initialState' | 'evolve'>,
  snapshot: StateSnapshot<State>,
  histories: readonly (readonly Event[])[],
): string {
  const hash = createHash('sha256');
  for (const history of histories) {
    let state = decider.initialState();
    for (const event of [undefined, ...history]) {
      if (event !== undefined) state = decider.evolve(state, event);
      const stored = JSON.stringify(snapshot.encode(state));
      expect(snapshot.decode(JSON.parse(stored))).toStrictEqual(state);
      hash.update(canonicalJson(snapshot.encode(state)));
    }
  }
  return hash.digest('hex');
}
