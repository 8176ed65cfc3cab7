/**
 * An event-sourced aggregate's rules as one value: its state before any event, how an event changes the
 * state, and which events a command makes of a state (a refused command throws a DomainError). `Context` is
 * what a command is decided with besides the state: the time, new ids, the stream's version.
 *
 * The same value serves the command handler, the projections that fold a stream, and the tests
 * (`given(decider, history).when(command)`, src/domain/testing.ts).
 */
export interface Decider<State, Command, Event, Context = undefined> {
  /** A new state for a stream with no event yet. */
  initialState: () => State;
  /** Applies one event; never throws, as it replays what was recorded. */
  evolve: (state: State, event: Event) => State;
  /** The events the command makes of the state, none when there is nothing to do. */
  decide: (command: Command, state: State, context: Context) => Event[];
}
