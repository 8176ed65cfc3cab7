import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { STOPPED_MESSAGE } from '../../ai';
import { askingAgain } from '../../ai/asking-again';
import { structuredOutputFor } from '../../ai/structured-output';
import { conflict, DomainError } from '../../domain/errors';
import { MESSAGES } from '../../domain/execution/decide';
import { outputProblem } from '../../domain/execution/output';
import { runIndexOf } from '../../domain/execution/queries';
import { executionStreamId } from '../../domain/execution/stream';
import type { StepResult } from '../../domain/execution/types';
import { parseModelId } from '../../domain/model-choice';
import { ConcurrencyConflict } from '../../eventstore';
import { startOfRun } from '../commands/command-handler';
import { readPromptConversation } from '../conversation-context/conversation-contexts';
import { onOneConnection } from '../database/one-connection';
import type { FlowsRepository } from '../flows';
import { STILL_BEING_ANSWERED } from '../idempotency/keyed-writes';
import { callModel, RunStoppedMeanwhile, type TokenSink } from '../model-calls/model-call';
import type { UserModels } from '../model-calls/user-models';
import type { Config } from '../runtime/config';
import type { ServerInstance } from '../runtime/server-instance';
import { stepRunEnded } from '../telemetry/metrics';
import { type RunSpan, recordAttribute, traceRun } from '../telemetry/spans';
import type { ExecutionCommands, LoadedExecution } from './execution-commands';
import type { RunRegistry } from './run-registry';

export interface StepRun {
  executionId: string;
  userId: string;
  stepId: string;
  userInput: string;
  /** The client's Idempotency-Key. */
  commandId?: string | undefined;
  /** A loop iteration to run; none: the step's first pending work, or a new version. */
  loopIteration?: number | null;
}

/**
 * Runs a step: StepRunStarted is appended and committed, the model is called outside any transaction
 * (its tokens streamed to the execution's sockets), then the outcome is appended.
 */
export class StepRunner {
  constructor(
    private readonly deps: {
      sql: Sql;
      config: Config;
      models: UserModels;
      executions: ExecutionCommands;
      flows: FlowsRepository;
      runs: RunRegistry;
      instance: ServerInstance;
      tokens: TokenSink;
    },
  ) {}

  /** Runs a step to its end and returns the execution with the run's results. */
  async run(request: StepRun): Promise<{ execution: LoadedExecution; results: StepResult[] }> {
    const runId = randomUUID();
    const record = recordAttribute('execution', request.executionId);
    return traceRun({ record, stepId: request.stepId, runId }, async (span) => {
      let recorded = false;
      try {
        const outcome = await this.runReserved(request, runId, span);
        recorded = outcome.results.some((result) => result.runId === runId);
        return outcome;
      } finally {
        // A run that did not record a result gives its free run back (a recorded one's usage row did).
        if (!recorded) await this.deps.models.release(runId);
      }
    });
  }

  private async runReserved(
    request: StepRun,
    runId: string,
    span: RunSpan,
  ): Promise<{ execution: LoadedExecution; results: StepResult[] }> {
    const { executions, flows, sql, config, models, runs, tokens } = this.deps;
    const { executionId, userId } = request;
    // Its flow and owner never change, and the run is decided again on the stream if it moved on.
    const loaded = await executions.recent(executionId, userId);
    const [flow, conversation] = await onOneConnection(sql, (connection) => [
      flows.stepsToRun(loaded.state.flowId, userId, connection),
      readPromptConversation(connection, loaded.state.flowId),
    ]);
    // The step's model as the flow has it now; it holds a free run, or is refused past the allowance (429),
    // before anything is appended.
    // An experiment's run keeps the steps (and models) of its flow version; any other run takes the flow's.
    const steps = loaded.state.experimentId === null ? flow.steps : loaded.state.steps;
    const step = steps.find((candidate) => candidate.id === request.stepId);
    if (step) span.named(step.name);
    const stepModel = step?.model ?? null;
    const model = await models.forRun(userId, runId, sql, stepModel);
    const { provider, keySource } = model;
    const started = await executions.handle(
      executionId,
      userId,
      {
        type: 'StartStepRun',
        data: {
          runId,
          stepId: request.stepId,
          loopIteration: request.loopIteration ?? null,
          userInput: request.userInput,
          model: provider.model,
          provider: parseModelId(model.modelId).provider,
          keySource,
          instanceId: this.deps.instance.id,
          conversation,
        },
      },
      // The flow's steps as they are now: the run brings the execution's steps up to date in the same command,
      // so a refused run writes nothing.
      {
        commandId: request.commandId,
        loaded,
        flow,
        // Its start stored though the database went away before answering: the run goes on (see storedAs).
        storedAs: startOfRun('StepRunStarted', runId),
      },
    );
    const startEvent = started.events.find((e) => e.type === 'StepRunStarted');
    if (!startEvent) return { execution: started, results: [] };
    if (startEvent.data.runId !== runId) return repeatedRun(started, startEvent.data.runId);
    span.started(started.version);
    const run = startEvent.data;
    const shape = structuredOutputFor(run.outputMode, run.choices);
    // A structured answer that does not fit its format is asked for again (a schema taken and not enforced).
    let reasks = 0;
    const { outputMode, choices, loopIteration } = run;
    const fits = (output: string) => outputProblem({ outputMode, choices, loopIteration, output });
    const checked = { ...model, provider: askingAgain(model.provider, fits, (n) => (reasks = n)) };
    return callModel({
      run: { runs, ownerId: executionId, runId, startedAt: started.version },
      source: {
        model: checked,
        request: {
          system: shape.instruction,
          prompt: run.finalPrompt,
          ...(shape.json ? { json: shape.json } : {}),
        },
      },
      limits: config.limits,
      tokens: { sink: tokens, streamId: executionStreamId(executionId) },
      succeeded: async (answer, durationMs, firstTokenMs) => {
        // Usually nothing happened during the call; a Stop meanwhile shows as a conflict and a reload.
        const completed = await executions.handle(
          executionId,
          userId,
          {
            type: 'CompleteStepRun',
            data: { runId, output: answer.text, usage: answer.usage, durationMs, reasks, firstTokenMs },
          },
          {
            loaded: started,
            guard: (state) => {
              if (state.status === 'stopped') throw new RunStoppedMeanwhile();
            },
          },
        );
        span.ended(completed.version);
        stepRunEnded('succeeded');
        return { execution: completed, results: completed.state.results.filter((r) => r.runId === runId) };
      },
      failed: async ({ reason, message, retryable, firstTokenMs }) => {
        const failed = await executions.handle(executionId, userId, {
          type: 'FailStepRun',
          data: { runId, message, retryable, reasks, firstTokenMs },
        });
        span.ended(failed.version);
        stepRunEnded(reason);
      },
      error: ({ reason, message, retryable, error }) => {
        if (reason === 'stopped') return conflict(MESSAGES.stopped);
        if (error instanceof DomainError || error instanceof ConcurrencyConflict) return error;
        return new DomainError('model_failed', message, { retryable });
      },
      conflictMessage:
        'The answer could not be recorded while the execution kept changing; run the step again.',
    });
  }
}

/** A repeated request (its Idempotency-Key seen before) answers with its first run's outcome. */
function repeatedRun(execution: LoadedExecution, runId: string) {
  const run = execution.state.runs[runIndexOf(execution.state.runs, runId)];
  if (run?.status === 'running') {
    throw conflict(STILL_BEING_ANSWERED, true);
  }
  if (run?.status === 'failed') {
    if (run.message === STOPPED_MESSAGE) throw conflict(MESSAGES.stopped);
    throw new DomainError('model_failed', run.message ?? 'The model call failed.');
  }
  return { execution, results: execution.state.results.filter((r) => r.runId === runId) };
}
