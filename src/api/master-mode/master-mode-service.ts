import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { DomainError, notFound, ruleViolated } from '../../domain/errors';
import type { CrashSweepFacts } from '../../domain/interrupted-runs';
import type { MasterCommand } from '../../domain/master-mode/commands';
import { type ExecuteAllOutcome, type MasterState, masterStreamId } from '../../domain/master-mode/events';
import type {
  MasterSession,
  MasterSessionWithSteps,
  MasterStep,
} from '../../domain/master-mode/master-session';
import {
  blankRequiredRow,
  planRowRun,
  requiredInputMessage,
  rowLabel,
} from '../../domain/master-mode/row-run';
import { mayInSql } from '../access';
import type { CommandHandler, Loaded } from '../commands/command-handler';
import type { Config } from '../config';
import type { RunRegistry } from '../executions/run-registry';
import { type CallSource, callModel, type TokenSink } from '../model-calls/model-call';
import type { UserModels } from '../model-calls/user-models';
import type { ServerInstance } from '../server-instance';
import { masterAggregate } from './master-aggregate';
import { callApiRow } from './master-api-call';

const SESSION_NOT_FOUND = 'Master mode session not found';

export const SESSION_COLUMNS = 'id, user_id, flow_id, session_name, created_at, updated_at';
export const STEP_COLUMNS =
  'id, session_id, "order", step_name, user_input, result, system_prompt, step_type, is_required, created_at, updated_at';

export interface ExecuteAllAnswer {
  outcome: Exclude<ExecuteAllOutcome, 'failed'>;
  session: MasterSessionWithSteps;
}

/**
 * Running master mode rows. Every run and every Execute All is a command on the session's
 * `master-<sessionId>` stream through the one command handler (the decider refuses a second Execute All
 * or a second run of a row, in any server process); a run's answer is written to its row in the same
 * transaction. ai rows go through the same provider choice and free allowance as flow step runs, and
 * their tokens reach the session's sockets as they come. Execute All runs the rows in order, each after
 * the previous ends, and reads the stream between rows, so a Stop sent to any server process ends it.
 */
export class MasterModeService {
  constructor(
    private readonly deps: {
      sql: Sql;
      config: Config;
      models: UserModels;
      commands: CommandHandler;
      runs: RunRegistry;
      instance: ServerInstance;
      tokens: TokenSink;
    },
  ) {}

  private get sql(): Sql {
    return this.deps.sql;
  }

  async session(sessionId: string, userId: string): Promise<MasterSession> {
    const [session] = await this.sql<MasterSession[]>`
      SELECT ${this.sql.unsafe(SESSION_COLUMNS)} FROM master_mode_sessions
      WHERE id = ${sessionId} AND ${mayInSql(this.sql, userId, 'read', 'master-session', 'user_id')}`;
    if (!session) throw notFound(SESSION_NOT_FOUND);
    return session;
  }

  rows(sessionId: string): Promise<MasterStep[]> {
    return this.sql<MasterStep[]>`
      SELECT ${this.sql.unsafe(STEP_COLUMNS)} FROM master_mode_steps
      WHERE session_id = ${sessionId} ORDER BY "order", created_at, id`;
  }

  async sessionWithSteps(sessionId: string, userId: string): Promise<MasterSessionWithSteps> {
    const session = await this.session(sessionId, userId);
    // The stream's position first: the rows and runs read after it are at least that new, so live updates
    // from it miss nothing (an event seen twice only refreshes the session again).
    const [stream] = await this.sql<{ version: string }[]>`
      SELECT version FROM streams WHERE stream_id = ${masterStreamId(sessionId)}`;
    const [steps, running] = await Promise.all([
      this.rows(sessionId),
      // A run a crash left without an outcome stops counting as running after the model timeout.
      this.sql<{ stepId: string }[]>`
        SELECT DISTINCT step_id FROM master_mode_runs
        WHERE session_id = ${sessionId} AND success IS NULL
          AND requested_at > now() - ${this.deps.config.modelTimeoutMs} * interval '1 millisecond'`,
    ]);
    return {
      ...session,
      steps,
      runningStepIds: running.map((r) => r.stepId),
      version: Number(stream?.version ?? 0),
    };
  }

  /** Marks the session changed now (the sessions list is ordered by it). */
  async touch(sessionId: string): Promise<void> {
    await this.sql`UPDATE master_mode_sessions SET updated_at = now() WHERE id = ${sessionId}`;
  }

  /** The row and its session, when the session is the user's. */
  async ownedRow(stepId: string, userId: string): Promise<MasterStep> {
    const [row] = await this.sql<MasterStep[]>`
      SELECT ${this.sql.unsafe(STEP_COLUMNS.replace(/(^|, )/g, '$1s.'))}
      FROM master_mode_steps s JOIN master_mode_sessions m ON m.id = s.session_id
      WHERE s.id = ${stepId} AND ${mayInSql(this.sql, userId, 'change', 'master-session', 'm.user_id')}`;
    if (!row) throw notFound('Master mode step not found');
    return row;
  }

  /** Runs one row (POST /api/master-mode/execute/:stepId) and answers the row with its new result. */
  async executeRow(stepId: string, userId: string): Promise<MasterStep> {
    const row = await this.ownedRow(stepId, userId);
    return this.runRow(row.sessionId, stepId, userId);
  }

  /** Runs every row in order; stops at the first failure (thrown) or at a Stop between rows. */
  async executeAll(sessionId: string, userId: string): Promise<ExecuteAllAnswer> {
    await this.session(sessionId, userId);
    const blank = blankRequiredRow(await this.rows(sessionId));
    if (blank) throw ruleViolated(requiredInputMessage(blank.position, blank.row));
    const runAllId = randomUUID();
    await this.handle(sessionId, userId, {
      type: 'StartExecuteAll',
      data: { runAllId, instanceId: this.deps.instance.id },
    });
    const end = (outcome: ExecuteAllOutcome, message: string | null = null) =>
      this.handle(sessionId, userId, { type: 'EndExecuteAll', data: { runAllId, outcome, message } });
    // Rows are read again before each run: earlier results and edits made meanwhile count.
    for (let position = 1; ; position++) {
      const loaded = await this.deps.commands.load(masterAggregate, sessionId, userId);
      const { executeAll } = loaded.state;
      if (executeAll?.runAllId !== runAllId || executeAll.stopRequested) {
        await end('stopped');
        return { outcome: 'stopped', session: await this.sessionWithSteps(sessionId, userId) };
      }
      const row = (await this.rows(sessionId))[position - 1];
      if (!row) break;
      try {
        // The stream as just read is the row run's starting point: no second read unless it changed.
        await this.runRow(sessionId, row.id, userId, loaded);
      } catch (error) {
        await end('failed', error instanceof Error ? error.message : String(error));
        throw error;
      }
    }
    await end('completed');
    return { outcome: 'completed', session: await this.sessionWithSteps(sessionId, userId) };
  }

  /** Asks the running Execute All to stop before its next row; false when none is running. */
  async stop(sessionId: string, userId: string): Promise<boolean> {
    await this.session(sessionId, userId);
    const { state } = await this.handle(sessionId, userId, { type: 'StopExecuteAll', data: {} });
    return state.executeAll !== null;
  }

  /**
   * Deletes the session and its rows; a running Execute All is asked to stop first. Its runs stay in the
   * event log and the record of runs, as a deleted flow's executions do.
   */
  async deleteSession(sessionId: string, userId: string): Promise<void> {
    await this.stop(sessionId, userId);
    const deleted = await this.sql`
      DELETE FROM master_mode_sessions
      WHERE id = ${sessionId} AND ${mayInSql(this.sql, userId, 'change', 'master-session', 'user_id')}
      RETURNING id`;
    if (deleted.length === 0) throw notFound(SESSION_NOT_FOUND);
  }

  /** Clears every row's result (a running Execute All is asked to stop first); the runs stay recorded. */
  async reset(sessionId: string, userId: string): Promise<MasterSessionWithSteps> {
    await this.session(sessionId, userId);
    await this.handle(sessionId, userId, { type: 'ResetResults', data: {} });
    return this.sessionWithSteps(sessionId, userId);
  }

  /**
   * Fails the session's runs a crash left unfinished (never those this process is making) and closes their
   * Execute All, as the decider judges them by what the sweep knows. Answers how many events that took.
   */
  async failInterrupted(sessionId: string, userId: string, facts: CrashSweepFacts): Promise<number> {
    const loaded = await this.deps.commands.load(masterAggregate, sessionId, userId);
    const alive = Object.keys(loaded.state.running).filter((runId) =>
      this.deps.runs.isRunning(sessionId, runId),
    );
    const { events } = await this.handle(
      sessionId,
      userId,
      { type: 'FailInterrupted', data: { ...facts, alive } },
      loaded,
    );
    return events.length;
  }

  private handle(sessionId: string, userId: string, command: MasterCommand, loaded?: Loaded<MasterState>) {
    return this.deps.commands.handle(masterAggregate, sessionId, userId, command, {
      loaded,
      context: () => ({ now: new Date().toISOString() }),
    });
  }

  private async runRow(
    sessionId: string,
    stepId: string,
    userId: string,
    loaded?: Loaded<MasterState>,
  ): Promise<MasterStep> {
    const runId = randomUUID();
    try {
      return await this.runRowReserved(sessionId, stepId, userId, runId, loaded);
    } catch (error) {
      // A run that recorded no result gives its free run back (a recorded one's usage row did).
      await this.deps.models.release(runId);
      throw error;
    }
  }

  private async runRowReserved(
    sessionId: string,
    stepId: string,
    userId: string,
    runId: string,
    loaded?: Loaded<MasterState>,
  ): Promise<MasterStep> {
    const { config, runs, tokens } = this.deps;
    const rows = await this.rows(sessionId);
    const position = rows.findIndex((r) => r.id === stepId) + 1;
    const row = rows[position - 1];
    if (!row) throw notFound('Master mode step not found');
    const plan = planRowRun(rows, position, config.masterModeApiHosts, config.limits);
    // Past the free allowance an ai row is refused (429) before anything is recorded or called.
    const source: CallSource =
      plan.kind === 'model'
        ? {
            model: await this.deps.models.forRun(userId, runId),
            request: { system: plan.system, prompt: plan.prompt },
          }
        : plan.kind === 'http'
          ? {
              answer: (signal) => callApiRow(plan.url, config.masterModeApiHosts, signal),
              name: 'Câu trả lời của API',
            }
          : { answer: async () => plan.result, name: rowLabel(position, row) };
    const model = 'model' in source ? source.model : null;
    const started = await this.handle(
      sessionId,
      userId,
      {
        type: 'StartRowRun',
        data: {
          runId,
          userId,
          sessionId,
          stepId,
          rowNumber: position,
          stepName: row.stepName,
          stepType: row.stepType,
          systemPrompt: row.systemPrompt,
          userInput: row.userInput,
          finalPrompt:
            plan.kind === 'model' ? plan.prompt : plan.kind === 'http' ? plan.url.href : plan.input.text,
          references: {
            ...plan.input.references,
            ...(plan.kind === 'model' ? plan.systemPrompt.references : {}),
          },
          unresolvedReferences: [
            ...new Set([
              ...plan.input.unresolved,
              ...(plan.kind === 'model' ? plan.systemPrompt.unresolved : []),
            ]),
          ],
          model: model?.provider.model ?? null,
          keySource: model?.keySource ?? null,
          instanceId: this.deps.instance.id,
        },
      },
      loaded,
    );
    await callModel({
      run: { runs, ownerId: sessionId, runId, startedAt: started.version },
      source,
      limits: config.limits,
      tokens: { sink: tokens, streamId: masterStreamId(sessionId) },
      succeeded: (answer, durationMs) =>
        this.handle(
          sessionId,
          userId,
          { type: 'CompleteRowRun', data: { runId, result: answer.text, usage: answer.usage, durationMs } },
          started,
        ),
      failed: async ({ message }) => {
        await this.handle(sessionId, userId, { type: 'FailRowRun', data: { runId, message } });
      },
      // The answer came but could not be recorded: that error as it is; else the row's failure, named.
      error: ({ recording, error, message, retryable }) =>
        recording
          ? error
          : new DomainError('model_failed', `${rowLabel(position, row)}: ${message}`, { retryable }),
    });
    const [updated] = await this.sql<MasterStep[]>`
      SELECT ${this.sql.unsafe(STEP_COLUMNS)} FROM master_mode_steps WHERE id = ${stepId}`;
    // The row was deleted while it ran: the run stays recorded, there is no row to show it.
    if (!updated) throw notFound('Master mode step not found');
    return updated;
  }
}
