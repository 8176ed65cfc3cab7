import { createHash, randomUUID } from 'node:crypto';
import type { ExecutionCommand, ExecutionEvent, ExecutionState } from '../../domain/execution/types';
import type { Limits } from '../../domain/limits';
import type { Role } from '../access';
import type { CommandHandler, Handled, HandleOptions, Loaded } from '../commands/command-handler';
import type { FlowsRepository, StepsToRun } from '../flows';
import { traceReviewDecisions } from '../telemetry/review-decisions';
import { executionAggregate } from './execution-aggregate';
import type { RunRegistry } from './run-registry';

export type LoadedExecution = Loaded<ExecutionState>;

export interface ExecutionCommandOptions {
  /** The client's Idempotency-Key: a command seen before returns its first outcome. */
  commandId?: string | undefined;
  /** The flow's current steps and version, for StartExecution and the sync a StartStepRun begins with. */
  flow?: StepsToRun;
  /** The execution as the caller last loaded it: tried first, reloaded only on a conflict. */
  loaded?: LoadedExecution;
  /** Checked against the execution before deciding; a thrown error ends the command. */
  guard?: (state: ExecutionState) => void;
  /** Tells the command's events in the stream when its answer was lost with the database (a run's start). */
  storedAs?: HandleOptions<ExecutionState, unknown>['storedAs'];
  /** The members of the execution's workspace, for a review's request (whom it may ask). */
  members?: readonly { userId: string; role: Role }[];
}

/** A workspace's members, as the decider weighs who may decide a review. */
export type Members = readonly { userId: string; role: Role }[];

/**
 * The commands that may ask for a review or change who may decide one: the decider is given the workspace's
 * members with them, so a review that too few people may decide goes to the owners in the same command.
 */
const WEIGHS_DECIDERS = new Set<ExecutionCommand['type']>([
  'CompleteStepRun',
  'EditResult',
  'DeleteResult',
  'HandBackReviews',
  'CheckReviewDeciders',
]);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Commands of executions, through the one command handler; time, ids and steps are handed to the decider. */
export class ExecutionCommands {
  constructor(
    private readonly flows: FlowsRepository,
    private readonly commands: CommandHandler,
    private readonly runs: RunRegistry,
    private readonly limits: Limits,
    /** The members of the execution's workspace now (none outside a workspace). */
    private readonly membersOf: (executionId: string) => Promise<Members>,
  ) {}

  load(executionId: string, userId: string | null): Promise<LoadedExecution> {
    return this.commands.load(executionAggregate, executionId, userId);
  }

  /** The execution as this process last knew it, or as read: a first try for a command (see `CommandHandler.recent`). */
  recent(executionId: string, userId: string): Promise<LoadedExecution> {
    return this.commands.recent(executionAggregate, executionId, userId);
  }

  async handle(
    executionId: string,
    userId: string,
    command: ExecutionCommand,
    options: ExecutionCommandOptions = {},
  ): Promise<Handled<ExecutionState, ExecutionEvent>> {
    // An execution the caller knows to be in no workspace has nobody to weigh: no query then (a run's
    // completion comes with the execution its start left).
    const inWorkspace = options.loaded?.state.workspaceId !== null;
    const members =
      options.members ??
      (WEIGHS_DECIDERS.has(command.type) && inWorkspace ? await this.membersOf(executionId) : undefined);
    const handled = await this.commands.handle(executionAggregate, executionId, userId, command, {
      commandId: options.commandId,
      loaded: options.loaded,
      guard: options.guard,
      storedAs: options.storedAs,
      startsStream: command.type === 'StartExecution' || command.type === 'StartExecutionFrom',
      // The actor's role is the one the access check read: a review's decision weighs it.
      context: (state, _version, role) => ({
        now: new Date().toISOString(),
        newId: randomUUID,
        userId,
        steps: options.flow?.steps ?? state.steps,
        flowVersion: options.flow?.version,
        workspaceId: options.flow?.workspaceId,
        limits: this.limits,
        role,
        members,
        textHash: sha256,
      }),
    });
    traceReviewDecisions(executionId, handled);
    return handled;
  }

  async start(flowId: string, userId: string, commandId?: string): Promise<LoadedExecution> {
    const flow = await this.flows.stepsToRun(flowId, userId);
    const executionId = randomUUID();
    return this.handle(
      executionId,
      userId,
      { type: 'StartExecution', data: { executionId, flowId } },
      { flow, commandId },
    );
  }

  /**
   * Stops the execution; model calls of its runs in this process are aborted at once, those of other
   * processes when their log tailer sees the stop.
   */
  async stop(executionId: string, userId: string, commandId?: string): Promise<LoadedExecution> {
    const outcome = await this.handle(
      executionId,
      userId,
      { type: 'StopExecution', data: {} },
      { commandId },
    );
    if (outcome.state.status === 'stopped') this.runs.stopped(executionId, outcome.version);
    return outcome;
  }
}
