import { decider } from '../../domain/execution/decider';
import { executionSnapshot } from '../../domain/execution/snapshot';
import type {
  DecideContext,
  ExecutionCommand,
  ExecutionEvent,
  ExecutionState,
} from '../../domain/execution/types';
import { EXECUTION_STREAM_PREFIX, executionStatements } from '../../projections/project-execution-events';
import { isExecutionRowElsewhere } from '../../projections/read-model-change';
import type { Action } from '../access';
import type { Aggregate } from '../commands/command-handler';

/** Executions as the command handler sees them: `execution-<id>` streams, the execution decider. */
export const executionAggregate: Aggregate<ExecutionState, ExecutionCommand, ExecutionEvent, DecideContext> =
  {
    streamType: 'execution',
    streamPrefix: EXECUTION_STREAM_PREFIX,
    name: 'Execution',
    decider,
    snapshot: executionSnapshot,
    recordsOutcome: (command) => command.type === 'CompleteStepRun' || command.type === 'FailStepRun',
    kind: 'execution',
    holderOf: (state) =>
      state.exists ? { ownerId: state.userId, workspaceId: state.workspaceId ?? null } : undefined,
    actionOf: (command) => COMMAND_ACTIONS[command.type],
    project: (tx, recorded, before, whole) => executionStatements(tx, recorded, before, whole),
    readModelElsewhere: isExecutionRowElsewhere,
  };

/**
 * What each command does to an execution, for the access rule: running it (starting, running steps,
 * stopping, resetting), reviewing its results (approve, edit, delete), or only recording the outcome of a
 * model call already allowed to run (read: stored whoever asks, so a finished call is never lost).
 */
const COMMAND_ACTIONS: Record<ExecutionCommand['type'], Action | null> = {
  StartExecution: 'run',
  StartExecutionFrom: 'run',
  StartStepRun: 'run',
  CompleteStepRun: 'read',
  FailStepRun: 'read',
  ApproveResult: 'review',
  UnapproveResult: 'review',
  EditResult: 'review',
  DeleteResult: 'review',
  // Asking someone else to review is part of running; deciding a review is reviewing (who the review names
  // is its own rule, checked by the decider).
  RequestReview: 'run',
  ApproveReview: 'review',
  RejectReview: 'review',
  // Sent by the server, never by a route: a review's timer, a member's removal. Nobody's role decides them;
  // the decider does (a review fires at its due time, a hand-back names only who left).
  DueReview: null,
  HandBackReviews: null,
  CheckReviewDeciders: null,
  StopExecution: 'run',
  ResetExecution: 'run',
};
