import type { ExperimentCommand, ExperimentContext } from '../../domain/experiment/commands';
import { decider } from '../../domain/experiment/decider';
import {
  EXPERIMENT_STREAM_PREFIX,
  type ExperimentEvent,
  type ExperimentState,
} from '../../domain/experiment/events';
import { experimentSnapshot } from '../../domain/experiment/snapshot';
import { experimentStatements } from '../../projections/project-experiment-events';
import type { Action } from '../access';
import type { Aggregate } from '../commands/command-handler';
import type { FlowHolder } from '../datasets';

/**
 * What each command needs on the experiment's flow: starting, driving, stopping and scoring an experiment
 * is running the flow; making it the flow's baseline is changing the flow. Ending one that cannot go on is
 * the server's (the runner sends it, never a route): nobody's role decides it, the decider does.
 */
const ACTIONS: Record<ExperimentCommand['type'], Action | null> = {
  StartExperiment: 'run',
  StartRun: 'run',
  FinishRun: 'run',
  SetRunWaiting: 'run',
  SetRunReady: 'run',
  InterruptRun: 'run',
  RecordScores: 'run',
  ScoreAgain: 'run',
  StopExperiment: 'run',
  EndExperiment: null,
  PromoteBaseline: 'change',
};

const OUTCOMES = new Set<ExperimentCommand['type']>([
  // A person's Stop commutes with the runs' commands too: many runs appending must not make it fail.
  'StopExperiment',
  'EndExperiment',
  'FinishRun',
  'SetRunWaiting',
  'SetRunReady',
  'InterruptRun',
  'RecordScores',
]);

/**
 * Experiments as the command handler sees them: `experiment-<id>` streams, the experiment decider, the
 * `experiments` row projected. An experiment lives where its flow lives, as a dataset does: the access rule
 * is asked of the flow's holder (`heldBy`), read with the flow's row just before the command.
 */
export const experimentAggregate: Aggregate<
  ExperimentState,
  ExperimentCommand,
  ExperimentEvent,
  ExperimentContext
> = {
  streamType: 'experiment',
  streamPrefix: EXPERIMENT_STREAM_PREFIX,
  name: 'Experiment',
  decider,
  snapshot: experimentSnapshot,
  // What happened to a run (its end, its wait, its interruption, its people's decision) and its scores record
  // work done: retried on conflicts with the other runs' commands until stored, never dropped.
  recordsOutcome: (command) => OUTCOMES.has(command.type),
  kind: 'flow',
  // Without the flow's holder, nobody but the server may touch it: see heldBy.
  holderOf: (state) => (state.experimentId === null ? undefined : { ownerId: null, workspaceId: null }),
  actionOf: (command) => ACTIONS[command.type],
  project: (tx, recorded) => experimentStatements(tx, recorded),
};

/** The experiment aggregate with its flow's holder: what the command handler asks the access rule of. */
export const experimentHeldBy = (
  holder: FlowHolder,
): Aggregate<ExperimentState, ExperimentCommand, ExperimentEvent, ExperimentContext> => ({
  ...experimentAggregate,
  holderOf: (state) => (state.experimentId === null ? undefined : holder),
});
