import { randomUUID } from 'node:crypto';
import { type ModelAnswer, ModelCallError } from '../ai';
import { structuredOutputFor } from '../ai/structured-output';
import { decide } from '../domain/execution/decide';
import { evolve, initialState } from '../domain/execution/evolve';
import {
  type ConversationContext,
  type ExecutionCommand,
  type ExecutionEvent,
  ExecutionRuleViolation,
  type ExecutionState,
  type StepResult,
} from '../domain/execution/types';
import type { StepSnapshot } from '../domain/flow';
import { ConcurrencyConflict } from '../eventstore';
import {
  executionStreamId,
  projectExecutionEvents,
  toExecutionEvent,
} from '../projections/project-execution-events';
import type { AppServices } from './app';
import { readPromptConversation } from './conversation-context';
import { HttpError, notFound } from './errors';
import { type ExecutionView, readExecutionView } from './execution-view';
import { ExecutionViewCache } from './execution-view-cache';
import { FlowsRepository } from './flows/flows-repository';
import { ownKeyForRun } from './usage-standing';
import { providerWithKey } from './user-model';
import type { LiveUpdateHub } from './ws/live-update-hub';

export interface LoadedExecution {
  state: ExecutionState;
  version: number;
}

export interface CommandOptions {
  /** The client's Idempotency-Key: a command seen before returns its first outcome. */
  commandId?: string | undefined;
  /** The flow's current steps, for StartExecution and SyncSteps. */
  steps?: StepSnapshot[];
  /** The execution as the caller last loaded it: tried first, reloaded only on a conflict. */
  loaded?: LoadedExecution;
  /** Checked against the execution before deciding; a thrown error ends the command. */
  guard?: (state: ExecutionState) => void;
}

const MAX_CONFLICT_RETRIES = 5;
const STOPPED = 'Stopped';

/** The execution was stopped while the model was answering: the answer is not recorded. */
class RunStopped extends Error {
  override message = STOPPED;
}

/**
 * Command handling for executions: load the stream, decide, append (the read models are projected in
 * the same transaction). Step runs append StepRunStarted, commit, call the model outside any
 * transaction, then append the outcome.
 */
export class ExecutionService {
  /** Model calls running in this process, by execution, so Stop can abort them. */
  private readonly running = new Map<string, Map<string, AbortController>>();
  private sweepTimer: NodeJS.Timeout | undefined;

  private readonly views = new ExecutionViewCache();

  constructor(
    private readonly services: AppServices,
    private readonly hub: LiveUpdateHub,
  ) {
    // Commands of other processes reach this one through the log tailer.
    hub.onExecutionEvent((executionId) => this.views.invalidate(executionId));
  }

  /** The projected execution, as GET /api/executions/:id answers. */
  view(executionId: string, userId: string): Promise<ExecutionView> {
    return readExecutionView(this.services.sql, executionId, userId);
  }

  /** The same view as JSON text, kept between changes: what polling asks for again and again. */
  async viewJson(executionId: string, userId: string): Promise<string> {
    const kept = this.views.get(executionId, userId);
    if (kept !== undefined) return kept;
    const ticket = this.views.ticket();
    const body = JSON.stringify(await this.view(executionId, userId));
    this.views.remember(executionId, userId, ticket, body);
    return body;
  }

  async load(executionId: string, userId: string | null): Promise<LoadedExecution> {
    const { version, events } = await this.services.store.readStream(executionStreamId(executionId));
    const state = events.map(toExecutionEvent).reduce(evolve, initialState());
    if (!state.exists || (userId !== null && state.userId !== userId)) throw notFound('Execution not found');
    return { state, version };
  }

  async handle(
    executionId: string,
    userId: string,
    command: ExecutionCommand,
    options: CommandOptions = {},
  ): Promise<LoadedExecution & { events: ExecutionEvent[] }> {
    // Without a client key the command is new by construction: no lookup needed.
    const earlier = options.commandId ? await this.services.store.findCommand(options.commandId) : null;
    if (earlier?.[0]) {
      // A repeated command answers with its first outcome, on the stream it was first applied to.
      const firstStream = earlier[0].streamId.slice(executionStreamId('').length);
      return { ...(await this.load(firstStream, userId)), events: earlier.map(toExecutionEvent) };
    }
    const commandId = options.commandId ?? randomUUID();
    // A start writes a new stream: nothing to load, and a conflict means the execution exists already.
    const startsStream = command.type === 'StartExecution' || command.type === 'StartExecutionFrom';
    let hint = options.loaded;
    for (let attempt = 0; ; attempt++) {
      const loaded = startsStream
        ? { state: initialState(), version: 0 }
        : (hint ?? (await this.load(executionId, userId)));
      hint = undefined;
      options.guard?.(loaded.state);
      const events = decide(command, loaded.state, {
        now: new Date().toISOString(),
        newId: randomUUID,
        userId,
        steps: options.steps ?? loaded.state.steps,
      });
      if (events.length === 0) return { ...loaded, events };
      try {
        const appended = await this.services.store.append(
          executionStreamId(executionId),
          'execution',
          loaded.version === 0 ? 'no_stream' : loaded.version,
          events.map((event) => ({ ...event, metadata: { userId, commandId, correlationId: commandId } })),
          // Appended at the loaded version, so the projector starts from the loaded state, not a read.
          { inTransaction: (tx, recorded) => projectExecutionEvents(tx, recorded, loaded) },
        );
        this.views.invalidate(executionId);
        if (appended.duplicate) {
          // The same command raced this one and won: its outcome stands.
          return { ...(await this.load(executionId, userId)), events: appended.events.map(toExecutionEvent) };
        }
        return { state: events.reduce(evolve, loaded.state), version: appended.nextExpectedVersion, events };
      } catch (error) {
        if (error instanceof ConcurrencyConflict && startsStream) {
          throw new HttpError(409, 'Execution already exists');
        }
        if (error instanceof ConcurrencyConflict && attempt < MAX_CONFLICT_RETRIES) continue;
        throw error;
      }
    }
  }

  async start(flowId: string, userId: string, commandId?: string): Promise<LoadedExecution> {
    const steps = await this.flowSteps(flowId, userId);
    const executionId = randomUUID();
    return this.handle(
      executionId,
      userId,
      { type: 'StartExecution', data: { executionId, flowId } },
      {
        steps,
        commandId,
      },
    );
  }

  /** Runs a step to its end and returns the execution with the run's results. */
  async runStep(
    executionId: string,
    userId: string,
    stepId: string,
    userInput: string,
    commandId?: string,
    /** A loop iteration to run; none: the step's first pending work, or a new version. */
    loopIteration: number | null = null,
  ): Promise<{ execution: LoadedExecution; results: StepResult[] }> {
    const loaded = await this.load(executionId, userId);
    // ownKeyForRun refuses a run past the free allowance (429) before anything is appended.
    const [steps, conversation, ownKey] = await Promise.all([
      this.flowSteps(loaded.state.flowId, userId),
      this.conversationOf(loaded.state.flowId),
      ownKeyForRun(this.services, userId),
    ]);
    const synced = await this.handle(executionId, userId, { type: 'SyncSteps', data: {} }, { steps, loaded });
    const { provider, keySource } = providerWithKey(this.services.config, ownKey, this.services.resolveModel);
    const runId = randomUUID();
    const started = await this.handle(
      executionId,
      userId,
      {
        type: 'StartStepRun',
        data: {
          runId,
          stepId,
          loopIteration,
          userInput,
          model: provider.model,
          keySource,
          conversation,
        },
      },
      { commandId, loaded: synced },
    );
    const startEvent = started.events.find((e) => e.type === 'StepRunStarted');
    if (!startEvent || startEvent.data.runId !== runId) {
      // A repeated command: its first outcome stands.
      return { execution: started, results: [] };
    }
    const run = startEvent.data;
    const controller = new AbortController();
    this.track(executionId, runId, controller);
    const startedAt = performance.now();
    try {
      const shape = structuredOutputFor(run.outputMode, run.choices);
      const stream = provider.stream({
        system: shape.instruction,
        prompt: run.finalPrompt,
        ...(shape.json ? { json: shape.json } : {}),
        signal: controller.signal,
      });
      for await (const text of stream) this.hub.publishDelta(executionId, runId, text, started.version);
      const answer = await stream.final;
      const durationMs = Math.round(performance.now() - startedAt);
      const completed = await this.complete(executionId, userId, started, runId, answer, durationMs);
      return { execution: completed, results: completed.state.results.filter((r) => r.runId === runId) };
    } catch (error) {
      if (error instanceof RunStopped) controller.abort();
      const aborted = controller.signal.aborted;
      const message = aborted ? STOPPED : error instanceof Error ? error.message : String(error);
      const retryable = !aborted && Boolean((error as { retryable?: boolean }).retryable);
      await this.handle(executionId, userId, { type: 'FailStepRun', data: { runId, message, retryable } });
      throw new HttpError(aborted ? 409 : 502, aborted ? 'Execution đã dừng' : message, retryable);
    } finally {
      this.untrack(executionId, runId);
      this.hub.forgetRun(executionId, runId);
    }
  }

  /** Records the answer; an answer that breaks the output contract, or one arriving after Stop, fails the run. */
  private async complete(
    executionId: string,
    userId: string,
    started: LoadedExecution,
    runId: string,
    answer: ModelAnswer,
    durationMs: number,
  ) {
    try {
      return await this.handle(
        executionId,
        userId,
        { type: 'CompleteStepRun', data: { runId, output: answer.text, usage: answer.usage, durationMs } },
        {
          // Usually nothing happened during the call; a Stop meanwhile shows as a conflict and a reload.
          loaded: started,
          guard: (state) => {
            if (state.status === 'stopped') throw new RunStopped();
          },
        },
      );
    } catch (error) {
      // The answer broke the step's output contract: a failed model call, which asking again may mend.
      if (error instanceof ExecutionRuleViolation && error.kind === 'invalid') {
        throw new ModelCallError(error.message, { retryable: true, cause: error });
      }
      throw error;
    }
  }

  async stop(executionId: string, userId: string, commandId?: string): Promise<LoadedExecution> {
    const outcome = await this.handle(
      executionId,
      userId,
      { type: 'StopExecution', data: {} },
      { commandId },
    );
    for (const controller of this.running.get(executionId)?.values() ?? []) controller.abort();
    return outcome;
  }

  /**
   * Fails runs that started but never ended (the process died during the model call). Runs of this
   * process are left alone; other processes' runs only once they are older than the model timeout.
   */
  async failInterruptedRuns(olderThanMs = this.services.config.modelTimeoutMs): Promise<number> {
    const rows = await this.services.sql<{ id: string; userId: string; runs: ExecutionState['runs'] }[]>`
      SELECT id, user_id, runs FROM executions WHERE runs @> '[{"status":"running"}]'::jsonb`;
    let failed = 0;
    for (const row of rows) {
      for (const run of row.runs) {
        const age = Date.now() - Date.parse(run.startedAt);
        if (run.status !== 'running' || age < olderThanMs || this.running.get(row.id)?.has(run.runId))
          continue;
        await this.handle(row.id, row.userId, {
          type: 'FailStepRun',
          data: { runId: run.runId, message: 'interrupted', retryable: true },
        }).catch(() => {});
        failed++;
      }
    }
    return failed;
  }

  startSweeping(intervalMs = 30_000) {
    this.sweepTimer = setInterval(() => void this.failInterruptedRuns().catch(() => {}), intervalMs);
    this.sweepTimer.unref();
  }

  async close() {
    clearInterval(this.sweepTimer);
    for (const runs of this.running.values()) for (const controller of runs.values()) controller.abort();
  }

  flowSteps(flowId: string, userId: string): Promise<StepSnapshot[]> {
    return new FlowsRepository(this.services.sql).stepSnapshots(flowId, userId);
  }

  private conversationOf(flowId: string): Promise<ConversationContext> {
    return readPromptConversation(this.services.sql, flowId);
  }

  private track(executionId: string, runId: string, controller: AbortController) {
    const runs = this.running.get(executionId) ?? new Map<string, AbortController>();
    runs.set(runId, controller);
    this.running.set(executionId, runs);
  }

  private untrack(executionId: string, runId: string) {
    const runs = this.running.get(executionId);
    runs?.delete(runId);
    if (runs?.size === 0) this.running.delete(executionId);
  }
}
