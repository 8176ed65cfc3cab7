import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { notFound } from '../../domain/errors';
import type { ExecutionCommand, ExecutionEvent, ExecutionState } from '../../domain/execution/types';
import type { StepSnapshot } from '../../domain/flow';
import type { CommandHandler, Handled, Loaded } from '../commands/command-handler';
import { executionAggregate } from './execution-aggregate';
import type { RunRegistry } from './run-registry';

export type LoadedExecution = Loaded<ExecutionState>;

export interface ExecutionCommandOptions {
  /** The client's Idempotency-Key: a command seen before returns its first outcome. */
  commandId?: string | undefined;
  /** The flow's current steps, for StartExecution and SyncSteps. */
  steps?: StepSnapshot[];
  /** The execution as the caller last loaded it: tried first, reloaded only on a conflict. */
  loaded?: LoadedExecution;
  /** Checked against the execution before deciding; a thrown error ends the command. */
  guard?: (state: ExecutionState) => void;
}

/** Commands of executions, through the one command handler; time, ids and steps are handed to the decider. */
export class ExecutionCommands {
  constructor(
    private readonly sql: Sql,
    private readonly commands: CommandHandler,
    private readonly runs: RunRegistry,
  ) {}

  load(executionId: string, userId: string | null): Promise<LoadedExecution> {
    return this.commands.load(executionAggregate, executionId, userId);
  }

  handle(
    executionId: string,
    userId: string,
    command: ExecutionCommand,
    options: ExecutionCommandOptions = {},
  ): Promise<Handled<ExecutionState, ExecutionEvent>> {
    return this.commands.handle(executionAggregate, executionId, userId, command, {
      commandId: options.commandId,
      loaded: options.loaded,
      guard: options.guard,
      startsStream: command.type === 'StartExecution' || command.type === 'StartExecutionFrom',
      context: (state) => ({
        now: new Date().toISOString(),
        newId: randomUUID,
        userId,
        steps: options.steps ?? state.steps,
      }),
    });
  }

  async start(flowId: string, userId: string, commandId?: string): Promise<LoadedExecution> {
    const steps = await this.flowSteps(flowId, userId);
    const executionId = randomUUID();
    return this.handle(
      executionId,
      userId,
      { type: 'StartExecution', data: { executionId, flowId } },
      { steps, commandId },
    );
  }

  /** Stops the execution; model calls of its runs in this process are aborted. */
  async stop(executionId: string, userId: string, commandId?: string): Promise<LoadedExecution> {
    const outcome = await this.handle(
      executionId,
      userId,
      { type: 'StopExecution', data: {} },
      { commandId },
    );
    this.runs.abortAll(executionId);
    return outcome;
  }

  async flowSteps(flowId: string, userId: string): Promise<StepSnapshot[]> {
    // One round trip: the flow's row proves ownership, a flow without steps gives one row of nulls.
    const rows = await this.sql<(StepSnapshot | { id: null })[]>`
      SELECT s.id, s."order", s.name, s.system_prompt, s.output_mode, s.input_sources, s.choices,
             s.loop_target_step_id, s.max_loop_iterations, s.requires_user_input
      FROM flows f LEFT JOIN steps s ON s.flow_id = f.id
      WHERE f.id = ${flowId} AND f.user_id = ${userId}
      ORDER BY s."order", s.created_at`;
    if (rows.length === 0) throw notFound('Flow not found');
    return rows.filter((row): row is StepSnapshot => row.id !== null);
  }
}
