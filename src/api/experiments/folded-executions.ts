import { executionStreamId } from '../../domain/execution/stream';
import type { ExecutionState } from '../../domain/execution/types';
import type { StepUsage } from '../../domain/experiment/outcomes';
import type { RecordedEvent } from '../../eventstore';
import { toExecutionEvent } from '../../projections/project-execution-events';
import { KeptStates } from '../commands/kept-states';
import { executionAggregate } from '../executions';

/** An execution folded from its stream, with what each step's model calls took. */
export interface ExecutionWithUsage {
  state: ExecutionState;
  usage: Map<string, StepUsage>;
}

interface Folded extends ExecutionWithUsage {
  /** The step of each run seen, for the usage of a run whose success comes in a later read. */
  stepOfRun: Map<string, string>;
}

type ReadAfter = (from: { streamId: string; after: number }[]) => Promise<Map<string, RecordedEvent[]>>;

/**
 * The executions of experiments as the comparison reads them, kept between reads by the version of their
 * streams (bounded by size, as the command handler's kept states are): each read asks the log, in one
 * statement per thousand executions, only for the events after what is kept, and folds those onto it. An
 * experiment of 5,000 runs is read whole once; every later page of its comparison reads what changed since.
 */
export class FoldedExecutions {
  private readonly kept = new KeptStates();

  constructor(private readonly readAfter: ReadAfter) {}

  async read(executionIds: readonly string[]): Promise<Map<string, ExecutionWithUsage>> {
    const ids = [...new Set(executionIds)];
    const bases = new Map(
      ids.map((id) => [
        id,
        this.kept.behindOrNot<Folded>(executionStreamId(id)) ?? { state: initial(), version: 0 },
      ]),
    );
    const read = await this.readAfter(
      ids.map((id) => ({ streamId: executionStreamId(id), after: bases.get(id)!.version })),
    );
    const folded = new Map<string, ExecutionWithUsage>();
    for (const id of ids) {
      const base = bases.get(id)!;
      const events = read.get(executionStreamId(id)) ?? [];
      const next = events.length === 0 ? base.state : fold(base.state, events);
      if (events.length > 0)
        this.kept.keep(executionStreamId(id), { state: next, version: events.at(-1)!.streamPosition });
      folded.set(id, { state: next.state, usage: next.usage });
    }
    return folded;
  }
}

const initial = (): Folded => ({
  state: executionAggregate.decider.initialState(),
  usage: new Map(),
  stepOfRun: new Map(),
});

/** The events after `from`, folded onto a copy of it (what is kept may be read by another comparison). */
function fold(from: Folded, events: readonly RecordedEvent[]): Folded {
  const { decider } = executionAggregate;
  let state = from.state;
  const stepOfRun = new Map(from.stepOfRun);
  const usage = new Map([...from.usage].map(([stepId, used]) => [stepId, { ...used }]));
  for (const recorded of events) {
    const event = toExecutionEvent(recorded);
    state = decider.evolve(state, event);
    if (event.type === 'StepRunStarted') stepOfRun.set(event.data.runId, event.data.stepId);
    if (event.type === 'StepRunSucceeded') {
      const stepId = stepOfRun.get(event.data.runId);
      if (stepId === undefined) continue;
      const used = usage.get(stepId) ?? { inputTokens: 0, outputTokens: 0, durationMs: 0 };
      used.inputTokens += event.data.usage?.inputTokens ?? 0;
      used.outputTokens += event.data.usage?.outputTokens ?? 0;
      used.durationMs += event.data.durationMs;
      usage.set(stepId, used);
    }
  }
  return { state, usage, stepOfRun };
}
