import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { DomainError, notFound, ruleViolated } from '../../domain/errors';
import { type CrashSweepFacts, INTERRUPTED } from '../../domain/interrupted-runs';
import type { MasterCommand } from '../../domain/master-mode/commands';
import {
  type ExecuteAllOutcome,
  type MasterEvent,
  type MasterState,
  masterStreamId,
} from '../../domain/master-mode/events';
import type {
  CreateMasterStep,
  ExecuteAllRecord,
  MasterSessionWithSteps,
  MasterStep,
  UpdateMasterStepInput,
} from '../../domain/master-mode/master-session';
import {
  blankRequiredRow,
  planRowRun,
  requiredInputMessage,
  rowLabel,
} from '../../domain/master-mode/row-run';
import { parseModelId } from '../../domain/model-choice';
import { type CommandHandler, type Handled, type Loaded, startOfRun } from '../commands/command-handler';
import type { RunRegistry } from '../executions';
import { type CallSource, callModel, type TokenSink } from '../model-calls/model-call';
import type { UserModels } from '../model-calls/user-models';
import type { Config } from '../runtime/config';
import type { ServerInstance } from '../runtime/server-instance';
import { type RunSpan, recordAttribute, traceRun } from '../telemetry/spans';
import { masterAggregate } from './master-aggregate';
import { callApiRow } from './master-api-call';
import type { MasterSessionsRepository, NewRow } from './master-sessions-repository';
import { STEP_NOT_FOUND } from './master-sessions-repository';

/** A row run's outcome: the row with its result, and the session's state after its run. */
interface RowRan {
  row: MasterStep;
  loaded: Loaded<MasterState>;
  /** Whether only the run's own events were appended since the state it started from. */
  ownEventsOnly: boolean;
}

/** Whether `after` is `before` with only the command's own events: no other command's came between. */
const onlyItsOwnEvents = (before: Loaded<MasterState>, after: Handled<MasterState, MasterEvent>) =>
  after.version === before.version + after.events.length;

/** What Execute All answers at once: the rows run after it, followed by the session's pushed events. */
export interface ExecuteAllStarted {
  runAllId: string;
  /** The session stream's position with the Execute All started. */
  version: number;
}

/**
 * Master mode sessions and their runs. A session is opened, and deleted, by an event on its
 * `master-<sessionId>` stream (which names its owner, so access is decided there), and every row run and
 * Execute All is a command on it through the one command handler (the decider refuses a second Execute All
 * or a second run of a row, in any server process); a run's answer is written to its row in the same
 * transaction. ai rows go through the same provider choice and free allowance as flow step runs, and their
 * tokens reach the session's sockets as they come. Execute All answers once it has started and runs the
 * rows in order after its answer, each after the previous ends, looking at the stream's version between rows,
 * so a Stop sent to any server process ends it; how it goes is told by the session's events.
 */
export class MasterModeService {
  /** The Execute Alls this process is running, by id, until their end is recorded. */
  private readonly executeAlls = new Map<string, Promise<unknown>>();
  private closing = false;

  constructor(
    private readonly deps: {
      sessions: MasterSessionsRepository;
      config: Config;
      models: UserModels;
      commands: CommandHandler;
      runs: RunRegistry;
      instance: ServerInstance;
      tokens: TokenSink;
      log: Pick<FastifyBaseLogger, 'error'>;
    },
  ) {}

  private get sessions(): MasterSessionsRepository {
    return this.deps.sessions;
  }

  async sessionWithSteps(sessionId: string, userId: string): Promise<MasterSessionWithSteps> {
    const session = await this.sessions.session(sessionId, userId);
    return this.sessions.withSteps(session, this.deps.config.modelTimeoutMs);
  }

  /** Opens a session with its first rows: its opening event and its records commit together. */
  async create(
    userId: string,
    name: string,
    flowId: string | null,
    rows: NewRow[],
  ): Promise<MasterSessionWithSteps> {
    const sessionId = randomUUID();
    const now = new Date().toISOString();
    await this.deps.commands.handle(
      masterAggregate,
      sessionId,
      userId,
      { type: 'OpenSession', data: { sessionId, ownerId: userId, flowId, sessionName: name } },
      {
        startsStream: true,
        context: () => ({ now }),
        withEvents: (tx) => this.sessions.insert(tx, { id: sessionId, userId, flowId, name, at: now }, rows),
      },
    );
    return this.sessionWithSteps(sessionId, userId);
  }

  /** Adds a row to the session (last, without an order). */
  async addRow(input: CreateMasterStep, userId: string): Promise<MasterStep> {
    const session = await this.sessions.session(input.sessionId, userId, 'change');
    const row = await this.sessions.addRow(session.id, input);
    await this.sessions.touch(session.id);
    return row;
  }

  /** Changes the fields of a row that `changes` names. */
  async changeRow(stepId: string, changes: UpdateMasterStepInput, userId: string): Promise<MasterStep> {
    const current = await this.sessions.rowFor(stepId, userId, 'change');
    const updated = await this.sessions.changeRow(stepId, { ...current, ...changes });
    await this.sessions.touch(current.sessionId);
    return updated;
  }

  async deleteRow(stepId: string, userId: string): Promise<void> {
    const current = await this.sessions.rowFor(stepId, userId, 'change');
    await this.sessions.deleteRow(stepId);
    await this.sessions.touch(current.sessionId);
  }

  /** Runs one row (POST /api/master-mode/execute/:stepId) and answers the row with its new result. */
  async executeRow(stepId: string, userId: string): Promise<MasterStep> {
    const row = await this.sessions.rowFor(stepId, userId, 'run');
    return (await this.runRow(row.sessionId, stepId, userId)).row;
  }

  /**
   * Starts running every row in order and answers at once; the rows run after the answer, and the run stops
   * at the first failure, at a Stop between rows, or when this process stops. Refused (and nothing started)
   * when a required row has no input or an Execute All is already running.
   */
  async executeAll(sessionId: string, userId: string): Promise<ExecuteAllStarted> {
    await this.sessions.session(sessionId, userId, 'run');
    const blank = blankRequiredRow(await this.sessions.rows(sessionId));
    if (blank) throw ruleViolated(requiredInputMessage(blank.position, blank.row));
    const runAllId = randomUUID();
    const started = await this.handle(sessionId, userId, {
      type: 'StartExecuteAll',
      data: { runAllId, instanceId: this.deps.instance.id },
    });
    const running = this.runAll(sessionId, userId, runAllId, started)
      .catch((error) =>
        // Its end could not be recorded (the database away): the crash sweep closes it once it is quiet.
        this.deps.log.error({ err: error, sessionId, runAllId }, 'Execute All ended unrecorded'),
      )
      .finally(() => this.executeAlls.delete(runAllId));
    this.executeAlls.set(runAllId, running);
    return { runAllId, version: started.version };
  }

  /**
   * The rows of an Execute All, in order; its end is recorded whatever happens to them. What was read is
   * carried from row to row, so a row costs the same whatever its position: the session's state as the last
   * row run's command left it, and the rows with each result written in as it lands. Before each row one
   * look at the session's marks (its stream's version, the count of its rows' edits) tells whether anything
   * else changed it (a Stop, a reset, a run or an edit from any process): only then is the stream folded or
   * the rows read again, so earlier results and edits made meanwhile count.
   */
  private async runAll(sessionId: string, userId: string, runAllId: string, started: Loaded<MasterState>) {
    const end = (outcome: ExecuteAllOutcome, message: string | null = null) =>
      this.handle(sessionId, userId, { type: 'EndExecuteAll', data: { runAllId, outcome, message } });
    let loaded = started;
    let rows: MasterStep[] | null = null;
    let rowsVersion: number | null = null;
    for (let position = 1; ; position++) {
      const marks = await this.sessions.marks(sessionId);
      if (marks.version !== loaded.version) {
        loaded = await this.deps.commands.load(masterAggregate, sessionId, userId);
        // Another command's events may have written results (a run of a row, a reset).
        rows = null;
      }
      const { executeAll } = loaded.state;
      if (executeAll?.runAllId !== runAllId || executeAll.stopRequested) return end('stopped');
      // This process is stopping: the rows left are for an Execute All sent again.
      if (this.closing) return end('failed', INTERRUPTED);
      if (rows === null || marks.rowsVersion === null || marks.rowsVersion !== rowsVersion) {
        rows = await this.sessions.rows(sessionId);
        rowsVersion = marks.rowsVersion;
      }
      const row = rows[position - 1];
      if (!row) return end('completed');
      try {
        // The stream and the rows as known are the row run's starting point: no second read of either.
        const ran = await this.runRow(sessionId, row.id, userId, { loaded, rows });
        loaded = ran.loaded;
        rows[position - 1] = ran.row;
        // Its commands were decided on events another command had appended meanwhile: read the rows again.
        if (!ran.ownEventsOnly) rows = null;
      } catch (error) {
        return end('failed', error instanceof Error ? error.message : String(error));
      }
    }
  }

  /** An Execute All of the session as recorded (running or ended). */
  async executeAllRecord(sessionId: string, runAllId: string, userId: string): Promise<ExecuteAllRecord> {
    await this.sessions.session(sessionId, userId);
    return this.sessions.executeAll(sessionId, runAllId);
  }

  /**
   * This process is closing: its Execute Alls start no new row, and the rows under way end (cut off with the
   * other runs when the graceful stop's time is up), each Execute All recorded as interrupted.
   */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.executeAlls.values());
  }

  /** Asks the running Execute All to stop before its next row; false when none is running. */
  async stop(sessionId: string, userId: string): Promise<boolean> {
    await this.sessions.session(sessionId, userId, 'run');
    const { state } = await this.handle(sessionId, userId, { type: 'StopExecuteAll', data: {} });
    return state.executeAll !== null;
  }

  /**
   * Deletes the session and its rows, and asks a running Execute All to stop. Its runs stay in the event log
   * and the record of runs, as a deleted flow's executions do.
   */
  async deleteSession(sessionId: string, userId: string): Promise<void> {
    await this.sessions.session(sessionId, userId, 'change');
    await this.deps.commands.handle(
      masterAggregate,
      sessionId,
      userId,
      { type: 'DeleteSession', data: {} },
      {
        context: () => ({ now: new Date().toISOString() }),
        withEvents: (tx) => this.sessions.delete(tx, sessionId),
      },
    );
  }

  /** Clears every row's result (a running Execute All is asked to stop first); the runs stay recorded. */
  async reset(sessionId: string, userId: string): Promise<MasterSessionWithSteps> {
    await this.sessions.session(sessionId, userId, 'run');
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
      // A row run's start stored though the database went away before answering: the run goes on.
      ...(command.type === 'StartRowRun'
        ? { storedAs: startOfRun('MasterRowRunStarted', command.data.runId) }
        : {}),
      context: () => ({ now: new Date().toISOString() }),
    });
  }

  private async runRow(
    sessionId: string,
    stepId: string,
    userId: string,
    read: { loaded?: Loaded<MasterState>; rows?: MasterStep[] } = {},
  ): Promise<RowRan> {
    const runId = randomUUID();
    const record = recordAttribute('master_session', sessionId);
    return traceRun({ record, stepId, runId }, async (span) => {
      try {
        return await this.runRowReserved(sessionId, stepId, userId, runId, read, span);
      } catch (error) {
        // A run that recorded no result gives its free run back (a recorded one's usage row did).
        await this.deps.models.release(runId);
        throw error;
      }
    });
  }

  private async runRowReserved(
    sessionId: string,
    stepId: string,
    userId: string,
    runId: string,
    read: { loaded?: Loaded<MasterState>; rows?: MasterStep[] },
    span: RunSpan,
  ): Promise<RowRan> {
    const { config, runs, tokens } = this.deps;
    const { loaded } = read;
    const rows = read.rows ?? (await this.sessions.rows(sessionId));
    const position = rows.findIndex((r) => r.id === stepId) + 1;
    const row = rows[position - 1];
    if (!row) throw notFound(STEP_NOT_FOUND);
    span.named(row.stepName);
    const plan = planRowRun(rows, position, config.masterModeApiHosts, config.limits);
    // Past the free allowance an ai row is refused (429) before anything is recorded or called.
    const source: CallSource =
      plan.kind === 'model'
        ? {
            model: await this.deps.models.forRun(userId, runId, undefined, plan.model),
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
          provider: model ? parseModelId(model.modelId).provider : null,
          keySource: model?.keySource ?? null,
          instanceId: this.deps.instance.id,
        },
      },
      loaded,
    );
    span.started(started.version);
    const completed = await callModel({
      run: { runs, ownerId: sessionId, runId, startedAt: started.version },
      source,
      limits: config.limits,
      tokens: { sink: tokens, streamId: masterStreamId(sessionId) },
      succeeded: (answer, durationMs, firstTokenMs) =>
        this.handle(
          sessionId,
          userId,
          {
            type: 'CompleteRowRun',
            data: { runId, result: answer.text, usage: answer.usage, durationMs, firstTokenMs },
          },
          started,
        ),
      failed: async ({ message, firstTokenMs }) => {
        await this.handle(sessionId, userId, { type: 'FailRowRun', data: { runId, message, firstTokenMs } });
      },
      // The answer came but could not be recorded: that error as it is; else the row's failure, named.
      error: ({ recording, error, message, retryable }) =>
        recording
          ? error
          : new DomainError('model_failed', `${rowLabel(position, row)}: ${message}`, { retryable }),
    });
    span.ended(completed.version);
    // The row deleted while it ran is 404: the run stays recorded, there is no row to show it.
    return {
      row: await this.sessions.row(stepId),
      loaded: completed,
      ownEventsOnly:
        loaded !== undefined && onlyItsOwnEvents(loaded, started) && onlyItsOwnEvents(started, completed),
    };
  }
}
