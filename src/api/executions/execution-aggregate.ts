import { decider } from '../../domain/execution/decider';
import type {
  DecideContext,
  ExecutionCommand,
  ExecutionEvent,
  ExecutionState,
} from '../../domain/execution/types';
import { EXECUTION_STREAM_PREFIX, executionStatements } from '../../projections/project-execution-events';
import { may } from '../access';
import type { Aggregate } from '../commands/command-handler';

/** Executions as the command handler sees them: `execution-<id>` streams, the execution decider. */
export const executionAggregate: Aggregate<ExecutionState, ExecutionCommand, ExecutionEvent, DecideContext> =
  {
    streamType: 'execution',
    streamPrefix: EXECUTION_STREAM_PREFIX,
    name: 'Execution',
    decider,
    recordsOutcome: (command) => command.type === 'CompleteStepRun' || command.type === 'FailStepRun',
    visibleTo: (state, userId) => state.exists && may(userId, 'read', 'execution', state.userId),
    project: (tx, recorded, before) => executionStatements(tx, recorded, before),
  };
