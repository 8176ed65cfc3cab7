import { randomUUID } from 'node:crypto';
import { ruleViolated } from '../../domain/errors';
import { snapshotOf } from '../../domain/execution/step-snapshots';
import {
  baselineFactsOf,
  configOfRequest,
  type ExperimentCommand,
  type ExperimentState,
  type ExperimentStatus,
  experimentStatus,
  experimentStreamId,
  type StartExperimentRequest,
  scorerName,
  stepsToExecute,
} from '../../domain/experiment';
import { type CompareResult, compareExperiments } from '../../domain/experiment/compare';
import { EXPERIMENT_MESSAGES, decider as experimentDecider } from '../../domain/experiment/decider';
import { countingScores, judgeUsageOf, runOutcomeOf } from '../../domain/experiment/outcomes';
import type { StepSnapshot } from '../../domain/flow';
import type { EventStore } from '../../eventstore';
import { toExperimentEvent } from '../../projections/project-experiment-events';
import type { CommandHandler, Loaded } from '../commands/command-handler';
import type { DatasetCommands, FlowHolder } from '../datasets';
import type { ExecutionCommands } from '../executions';
import type { FlowCommands, FlowsRepository } from '../flows';
import type { Page } from '../http/pages';
import { experimentHeldBy } from './experiment-aggregate';
import type { ExperimentFacts, ExperimentRunner } from './experiment-runner';
import { type ExperimentsRepository, pastExperimentsLimit } from './experiments-repository';
import { FoldedExecutions } from './folded-executions';

/** How many experiments one comparison may name. */
export const MAX_COMPARED = 5;

export const COMPARE_MESSAGES = {
  ids: `ids: từ 1 đến ${MAX_COMPARED} experiment, cách nhau bằng dấu phẩy`,
  otherFlow: 'Chỉ so sánh được các experiment của cùng một flow',
} as const;

/**
 * Experiments through the one command handler: started from a flow version and a dataset version (both read
 * by who may run the flow), stopped, scored again and promoted; read with their runs, and compared.
 */
export class ExperimentCommands {
  /** The experiments' executions as the comparison last read them, so that its next page reads only what changed. */
  private readonly folded: FoldedExecutions;

  constructor(
    private readonly deps: {
      commands: CommandHandler;
      store: EventStore;
      flows: FlowsRepository;
      flowCommands: FlowCommands;
      datasets: DatasetCommands;
      executions: ExecutionCommands;
      experiments: ExperimentsRepository;
      runner: () => ExperimentRunner;
    },
  ) {
    this.folded = new FoldedExecutions((from) => deps.store.readStreamsAfter(from));
  }

  /** Starts an experiment and answers at once; its runs are driven after, by the drive job. */
  async start(request: StartExperimentRequest, userId: string, commandId?: string) {
    const { flows, flowCommands, datasets, commands } = this.deps;
    const flow = await flows.owned(request.flowId, userId, 'run');
    const version = await flowCommands.versionState(flow.id, userId, request.flowVersion);
    const steps = (version.state.steps ?? []).map(snapshotOf);
    const dataset = await datasets.read(request.datasetId, userId, request.datasetVersion);
    if (dataset.flowId !== flow.id)
      throw ruleViolated('datasetId: dataset phải thuộc cùng flow với experiment');
    const baseline = request.baselineId ? await this.baselineFor(request.baselineId, userId) : null;
    const changedItemIds = baseline
      ? await this.changedItems(request.datasetId, userId, baseline.state.datasetVersion, dataset.items)
      : [];
    const experimentId = randomUUID();
    const holder: FlowHolder = { ownerId: flow.userId, workspaceId: flow.workspaceId };
    const counts = await this.deps.experiments.countsOf(flow.id, userId);
    const started = await commands
      .handle(
        experimentHeldBy(holder),
        experimentId,
        userId,
        {
          type: 'StartExperiment',
          data: {
            experimentId,
            flowId: flow.id,
            flowVersion: version.version,
            workspaceId: flow.workspaceId,
            datasetId: dataset.id,
            datasetVersion: dataset.version,
            config: configOfRequest(request),
            steps,
            items: dataset.items.map((item) => ({ id: item.id, archived: item.archived })),
            baseline: baseline ? baselineFactsOf(baseline.state, baseline.steps) : null,
            changedItemIds,
            experimentsOfFlow: counts.ofFlow,
            runningOfUser: counts.running,
          },
        },
        {
          startsStream: true,
          commandId,
          context: () => ({ now: new Date().toISOString(), userId }),
          // The counts above hold for one start at a time; those made at once are counted again as stored.
          withEvents: (tx) => this.deps.experiments.withinLimits(tx, flow.id, userId),
        },
      )
      .catch((error: unknown) => {
        const past = pastExperimentsLimit(error);
        if (past === null) throw error;
        throw ruleViolated(
          past === 'ofFlow' ? EXPERIMENT_MESSAGES.tooManyOfFlow : EXPERIMENT_MESSAGES.tooManyRunning,
        );
      });
    // A request sent again with its Idempotency-Key answers the experiment its first sending started.
    const startedId = started.state.experimentId ?? experimentId;
    await this.deps.runner().wake(startedId);
    return this.read(startedId, userId);
  }

  /**
   * The facts a runner drives the experiment with, read as the one who started it; or as `readAs`, who asks
   * for them now (scoring again) and may run the flow, whether or not its starter still may.
   */
  async factsOf(experimentId: string, readAs?: string): Promise<ExperimentFacts> {
    const holder = await this.deps.experiments.holderOf(experimentId);
    const loaded = await this.deps.commands.load(experimentHeldBy(holder), experimentId, null);
    const { state } = loaded;
    const reader = readAs ?? state.startedBy;
    const versionSteps = await this.versionSteps(state.flowId, reader, state.flowVersion);
    const dataset = await this.deps.datasets.read(state.datasetId, reader, state.datasetVersion);
    return {
      experimentId,
      holder,
      startedBy: state.startedBy,
      config: state.config!,
      steps: state.config ? stepsToExecute(versionSteps, state.config) : [],
      versionSteps,
      flowVersion: state.flowVersion,
      workspaceId: state.workspaceId,
      items: new Map(
        dataset.items.map((item) => [item.id, { inputs: item.inputs, expected: item.expected }]),
      ),
    };
  }

  /** Asks the experiment to stop: no run starts any more, and every open run's execution is stopped. */
  async stop(experimentId: string, userId: string, commandId?: string) {
    const { holder } = await this.deps.experiments.readable(experimentId, userId, 'run');
    const stopped = await this.handle(
      holder,
      experimentId,
      userId,
      { type: 'StopExperiment', data: {} },
      commandId,
    );
    // What follows is the stop's own doing, by whoever stops it (who may run the flow): the one who started
    // it may no longer be let in (gone from the workspace), and their runs must end all the same.
    for (const run of stopped.state.runs) {
      if (run.status === 'planned' || run.status === 'finished' || run.executionId === null) continue;
      const execution = await this.deps.executions.stop(run.executionId, userId).catch(() => null);
      // Runs no process drives now (waiting for people, ready, interrupted) end here; a driven one ends
      // with its driver, which sees its execution stopped.
      if (run.status !== 'running' || execution === null)
        await this.handle(holder, experimentId, userId, {
          type: 'FinishRun',
          data: { runKey: run.runKey, executionId: run.executionId, outcome: 'stopped' },
        }).catch(() => null);
    }
    return this.read(experimentId, userId);
  }

  /** "Score again": the scorers named (every one when none) score each run's stored outputs, no flow model call. */
  async scoreAgain(experimentId: string, userId: string, scorerNames?: string[], commandId?: string) {
    const { holder } = await this.deps.experiments.readable(experimentId, userId, 'run');
    // Read before the new round is recorded: a round recorded with no scores would hide the last round's.
    const facts = await this.factsOf(experimentId, userId);
    const started = await this.handle(
      holder,
      experimentId,
      userId,
      { type: 'ScoreAgain', data: { scorerNames } },
      commandId,
    );
    const { state } = started;
    const names = (state.config?.scorers ?? [])
      .map(scorerName)
      .filter((n) => state.rescoredIn[n] === state.round);
    const runner = this.deps.runner();
    for (const run of state.runs) {
      if (run.executionId === null || run.status === 'planned') continue;
      const execution = await this.deps.executions.load(run.executionId, null);
      const { scores, judgeUsage } = await runner.scoresOf(facts, state, run, execution, {
        reviews: false,
        scorerNames: names,
      });
      if (scores.length > 0)
        await this.handle(holder, experimentId, userId, {
          type: 'RecordScores',
          data: { scores, round: state.round, judgeUsage },
        });
    }
    return this.read(experimentId, userId);
  }

  /** Makes the experiment its flow's baseline (a recorded command). */
  async promote(experimentId: string, userId: string, commandId?: string) {
    const { holder } = await this.deps.experiments.readable(experimentId, userId, 'change');
    await this.handle(holder, experimentId, userId, { type: 'PromoteBaseline', data: {} }, commandId);
    return this.read(experimentId, userId);
  }

  /** The experiment with its settings and runs, to whoever may read its flow. */
  async read(experimentId: string, userId: string) {
    const row = await this.deps.experiments.readable(experimentId, userId);
    const loaded = await this.deps.commands.load(experimentHeldBy(row.holder), experimentId, userId);
    return viewOf(
      loaded,
      row.promotedAt !== null && (await this.deps.experiments.baselineOf(row.flowId)) === row.id,
    );
  }

  /** The flow's experiments, newest first; and which is its baseline. */
  async list(flowId: string, userId: string, page: Page | null) {
    await this.deps.flows.owned(flowId, userId);
    const [rows, baselineId] = await Promise.all([
      this.deps.experiments.list(flowId, userId, page),
      this.deps.experiments.baselineOf(flowId),
    ]);
    return rows.map((row) => ({ ...row, isBaseline: row.id === baselineId }));
  }

  /** The experiments compared, the first as the baseline: per item and step, and summaries. */
  async compare(ids: readonly string[], userId: string): Promise<CompareResult> {
    const unique = [...new Set(ids)];
    if (unique.length === 0 || unique.length > MAX_COMPARED) throw ruleViolated(COMPARE_MESSAGES.ids);
    const rows = await Promise.all(unique.map((id) => this.deps.experiments.readable(id, userId)));
    if (new Set(rows.map((row) => row.flowId)).size > 1) throw ruleViolated(COMPARE_MESSAGES.otherFlow);
    const outcomes = await Promise.all(rows.map((row) => this.outcomeOf(row.id)));
    return compareExperiments(outcomes);
  }

  /** An experiment's runs as the compare view reads them: each execution's outputs, usage and scores. */
  private async outcomeOf(experimentId: string) {
    const { events } = await this.deps.store.readStream(experimentStreamId(experimentId));
    const experimentEvents = events.map(toExperimentEvent);
    const state = experimentEvents.reduce(experimentDecider.evolve, experimentDecider.initialState());
    const scores = countingScores(state, experimentEvents);
    const judgeUsage = judgeUsageOf(experimentEvents);
    const executions = await this.folded.read(
      state.runs.flatMap((run) => (run.executionId === null ? [] : [run.executionId])),
    );
    const runs = state.runs.map((run) => {
      const read = run.executionId === null ? undefined : executions.get(run.executionId);
      return runOutcomeOf({
        run,
        stepIds: state.stepIds,
        execution: read?.state ?? null,
        usage: read?.usage ?? new Map(),
        scores: run.executionId === null ? [] : (scores.get(run.executionId) ?? []),
      });
    });
    return { experimentId, runs, judgeUsage };
  }

  private async baselineFor(baselineId: string, userId: string) {
    const row = await this.deps.experiments.readable(baselineId, userId);
    const { state } = await this.deps.commands.load(experimentHeldBy(row.holder), baselineId, userId);
    const steps = await this.versionSteps(state.flowId, userId, state.flowVersion);
    return { state, steps };
  }

  /** Items whose inputs or expected texts differ between the baseline's dataset version and this one. */
  private async changedItems(
    datasetId: string,
    userId: string,
    baselineVersion: number,
    items: readonly { id: string; inputs: Record<string, string>; expected: Record<string, string> }[],
  ): Promise<string[]> {
    const before = await this.deps.datasets.read(datasetId, userId, baselineVersion).catch(() => null);
    if (!before) return items.map((item) => item.id);
    const was = new Map(before.items.map((item) => [item.id, JSON.stringify([item.inputs, item.expected])]));
    return items
      .filter((item) => was.get(item.id) !== JSON.stringify([item.inputs, item.expected]))
      .map((i) => i.id);
  }

  private async versionSteps(flowId: string, userId: string, version: number): Promise<StepSnapshot[]> {
    const { state } = await this.deps.flowCommands.versionState(flowId, userId, version);
    return (state.steps ?? []).map(snapshotOf);
  }

  private handle(
    holder: FlowHolder,
    experimentId: string,
    userId: string,
    command: ExperimentCommand,
    commandId?: string,
  ) {
    return this.deps.commands.handle(experimentHeldBy(holder), experimentId, userId, command, {
      commandId,
      context: () => ({ now: new Date().toISOString(), userId }),
    });
  }
}

/** An experiment as its screen shows it: its settings, its status, its counts and its runs. */
export function viewOf(loaded: Loaded<ExperimentState>, isBaseline: boolean) {
  const { state, version } = loaded;
  const count = (status: string) => state.runs.filter((run) => run.status === status).length;
  return {
    id: state.experimentId!,
    flowId: state.flowId,
    flowVersion: state.flowVersion,
    datasetId: state.datasetId,
    datasetVersion: state.datasetVersion,
    baselineId: state.baselineId,
    reuseBefore: state.reuseBefore,
    config: state.config!,
    stepIds: state.stepIds,
    status: experimentStatus(state) as Exclude<ExperimentStatus, 'none'>,
    isBaseline,
    counts: {
      total: state.runs.length,
      planned: count('planned'),
      running: count('running'),
      waiting: count('waiting') + count('ready'),
      interrupted: count('interrupted'),
      finished: state.finished,
      completed: state.runs.filter((run) => run.outcome === 'completed').length,
      failed: state.runs.filter((run) => run.outcome === 'failed').length,
      stopped: state.runs.filter((run) => run.outcome === 'stopped').length,
    },
    runs: state.runs.map((run) => ({
      runKey: run.runKey,
      itemId: run.itemId,
      repetition: run.repetition,
      status: run.status,
      executionId: run.executionId,
      reusedFrom: run.reusedFrom,
      outcome: run.outcome,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
    })),
    startedBy: state.startedBy,
    startedAt: state.startedAt!,
    stoppedAt: state.stopped?.at ?? null,
    // Why the server stopped it (null: a person asked to, or it did not stop).
    stopReason: state.stopped?.reason ?? null,
    completedAt: state.completedAt,
    promotedAt: state.promotedAt,
    version,
  };
}

export type ExperimentView = ReturnType<typeof viewOf>;
