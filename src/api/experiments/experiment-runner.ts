import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from 'postgres';
import { DomainError } from '../../domain/errors';
import { NOT_A_LOOP } from '../../domain/execution/cache-layout';
import { firstPendingCacheItem } from '../../domain/execution/queries';
import { waitsForReview } from '../../domain/execution/reviews';
import type { ExecutionState } from '../../domain/execution/types';
import {
  addedJudgeUsage,
  canReuseFrom,
  type ExperimentCommand,
  type ExperimentConfig,
  type ExperimentState,
  hasEnded,
  type JudgeUsage,
  NO_JUDGE_USAGE,
  nextRunsToStart,
  openRuns,
  type RunOutcome,
  type RunState,
  type RunToStart,
  reviewModeOf,
  runsOfGoneInstances,
  type Score,
  type StopReason,
  scorerName,
} from '../../domain/experiment';
import {
  JUDGE_INSTRUCTION,
  JUDGE_SCHEMA,
  type JudgeDefinition,
  judgePrompt,
  judgeScore,
} from '../../domain/experiment/judge';
import { codeScoresOf, type ItemTexts, scoredStepOf, stepOutputOf } from '../../domain/experiment/outcomes';
import { reviewScores } from '../../domain/experiment/review-scores';
import type { StepSnapshot } from '../../domain/flow';
import { INTERRUPTED } from '../../domain/interrupted-runs';
import { ConcurrencyConflict } from '../../eventstore';
import type { CommandHandler, Handled, Loaded } from '../commands/command-handler';
import type { FlowHolder } from '../datasets';
import type { ExecutionCommands, LoadedExecution, RunRegistry } from '../executions';
import { SERVER_STOPPED } from '../model-calls/model-call';
import { observedAnswer } from '../model-calls/observed-answer';
import type { UserModels } from '../model-calls/user-models';
import type { JobQueue } from '../notifications/job-queue';
import { LOOK_AGAIN_MS, type ServerInstance } from '../runtime/server-instance';
import { POSITION, recordAttribute } from '../telemetry/spans';
import { experimentHeldBy } from './experiment-aggregate';
import type { ExperimentsRepository } from './experiments-repository';

/** The events of an experiment after which its runs are looked at again: each may make room or work. */
const ROOM_EVENTS = new Set([
  'ExperimentStarted',
  'ExperimentRunFinished',
  'ExperimentRunWaiting',
  'ExperimentRunReady',
  'ExperimentRunInterrupted',
]);

/** How long a count of the live instances stands for the shares of the concurrency. */
const LIVE_COUNT_MS = 2_000;

/** The queue of the job that drives an experiment: starts the runs its state says to start now. */
export const DRIVE_QUEUE = 'experiment.drive';

/** The step runner (the executions'), as the experiment runner uses it: one unit of work of a step, to its end. */
export interface StepRuns {
  run(request: {
    executionId: string;
    userId: string;
    stepId: string;
    userInput: string;
    loopIteration?: number | null;
  }): Promise<{ execution: LoadedExecution }>;
}

/** What the runner knows of an experiment for the time it drives it: fixed once it started. */
export interface ExperimentFacts {
  experimentId: string;
  /** Its flow's holder, read again at each look (the flow may move to another workspace). */
  holder: FlowHolder;
  startedBy: string;
  /** The flow version's steps as the runs execute them (stepsToExecute). */
  steps: StepSnapshot[];
  /** Its settings, fixed once it started. */
  config: ExperimentConfig;
  /** The flow version's steps as stored (a scorer's default step is their last). */
  versionSteps: StepSnapshot[];
  flowVersion: number;
  workspaceId: string | null;
  /** The dataset's items at the pinned version, by id. */
  items: ReadonlyMap<string, ItemTexts>;
}

/**
 * Drives experiments: each (item, repetition) as an ordinary execution of the flow version, step by step
 * through the step runner (the same model choice, allowance and limits as any run), approving each step as
 * its review mode says, waiting for people where they decide, and recording the run's scores and outcome on
 * the experiment's stream. Which runs start is the experiment's rules' to say (nextRunsToStart); a run is
 * recorded as started (StartRun, with this instance) before its execution is made, so two instances never
 * make two executions of one run. Any instance drives: the drive job is on the durable queue, sent again each
 * time room is made; a run whose instance died is interrupted by the sweep and started again elsewhere.
 */
export class ExperimentRunner {
  /** Runs this process is driving, by `<experimentId>/<runKey>`. */
  private readonly running = new Map<string, Promise<void>>();
  /** The experiments' facts, read once per process (nothing in them changes). */
  private readonly facts = new Map<string, Promise<ExperimentFacts>>();
  /** Executions of runs waiting for people, and their experiment: a decision on one wakes its experiment. */
  private readonly waiting = new Map<string, string>();
  /** The looks at experiments under way in this process, by experiment. */
  private readonly looks = new Map<string, { again: boolean; done: Promise<void> }>();
  /** Executions of waiting runs someone decided on since their experiment was last looked at. */
  private readonly decidedOn = new Set<string>();
  /** The live instances as last counted, and when (a look counts them again after LIVE_COUNT_MS). */
  private live = { count: 1, at: Number.NEGATIVE_INFINITY };
  private closing = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      sql: Sql;
      commands: CommandHandler;
      executions: ExecutionCommands;
      stepRunner: StepRuns;
      models: UserModels;
      experiments: ExperimentsRepository;
      queue: JobQueue;
      /** The model calls this process is making. */
      runs: Pick<RunRegistry, 'isRunning'>;
      instance: ServerInstance;
      log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
      /** The experiment's facts, read from its flow version and dataset version. */
      factsOf: (experimentId: string) => Promise<ExperimentFacts>;
    },
  ) {}

  async start(sweepEveryMs: number) {
    await this.deps.queue.work<{ experimentId: string }>(DRIVE_QUEUE, async (job) => {
      await this.drive(job.data.experimentId);
    });
    this.timer = setInterval(() => void this.sweep().catch(() => {}), sweepEveryMs);
    this.timer.unref();
  }

  /** Sends the drive job of the experiment: whichever instance takes it starts what there is room for. */
  async wake(experimentId: string) {
    if (this.closing) return;
    await this.deps.queue.send({ name: DRIVE_QUEUE, data: { experimentId } }).catch((error) => {
      this.deps.log.warn({ err: error, experimentId }, 'experiment drive job not sent');
    });
  }

  /**
   * An event of an experiment's stream that makes room or work (a run started elsewhere, finished, waiting,
   * ready or interrupted, the experiment started): every instance hears it and looks again.
   */
  changed(experimentId: string, event: { type: string; data: unknown }) {
    // Which executions wait for people, known to every instance from the events themselves.
    const { executionId } = event.data as { executionId?: string };
    if (executionId !== undefined) {
      if (event.type === 'ExperimentRunWaiting') {
        this.waiting.set(executionId, experimentId);
        // A decision may have come before the wait was recorded: the look this event asks for reads it once.
        this.decidedOn.add(executionId);
      } else if (event.type !== 'ExperimentRunStarted') this.waiting.delete(executionId);
    }
    if (this.closing || !ROOM_EVENTS.has(event.type)) return;
    void this.drive(experimentId).catch((error) =>
      this.deps.log.warn({ err: error, experimentId }, 'experiment drive failed'),
    );
  }

  /** An execution's event that may end a wait for people: its experiment is driven again. */
  decided(executionId: string) {
    const experimentId = this.waiting.get(executionId);
    if (experimentId === undefined) return;
    this.decidedOn.add(executionId);
    void this.drive(experimentId).catch(() => {});
  }

  /**
   * Every unfinished experiment, driven once: runs of instances that died are interrupted (and so started
   * again), waiting runs whose people decided go on, and runs not started start where there is room.
   */
  async sweep(lookAgain = () => new Promise<void>((resolve) => setTimeout(resolve, LOOK_AGAIN_MS))) {
    const unfinished = await this.deps.experiments.unfinished();
    for (const { id } of unfinished) {
      await this.drive(id, lookAgain).catch((error) =>
        this.deps.log.warn({ err: error, experimentId: id }, 'experiment sweep failed'),
      );
    }
  }

  /** Stops starting runs; the runs this process drives end at their next step, each interrupted. */
  async close() {
    this.closing = true;
    clearInterval(this.timer);
    await Promise.allSettled(this.running.values());
  }

  /**
   * One look at the experiment (what the sweep, the drive job and its stream's events ask for): one at a time
   * per experiment in this process, a look asked for meanwhile made once after it.
   */
  drive(experimentId: string, lookAgain?: () => Promise<void>): Promise<void> {
    const under = this.looks.get(experimentId);
    if (under) {
      under.again = true;
      return under.done;
    }
    const look: { again: boolean; done: Promise<void> } = { again: false, done: Promise.resolve() };
    look.done = (async () => {
      try {
        do {
          look.again = false;
          try {
            await this.lookAt(experimentId, lookAgain);
          } catch (error) {
            // A look asked for meanwhile is still made: what failed this one may have passed.
            if (!look.again) throw error;
            this.deps.log.warn({ err: error, experimentId }, 'experiment look failed; looking again');
          }
        } while (look.again && !this.closing);
      } finally {
        this.looks.delete(experimentId);
      }
    })();
    this.looks.set(experimentId, look);
    return look.done;
  }

  /**
   * Interrupts runs of dead instances, readies waiting runs whose people decided, and starts runs where there
   * is room: at most this instance's share of the concurrency (split evenly over the live instances), so that
   * every instance runs its part and each refills its own as its runs end.
   */
  private async lookAt(experimentId: string, lookAgain?: () => Promise<void>): Promise<void> {
    if (this.closing) return;
    // Where its flow is now (it may have moved since): the commands of its runs are asked of that holder.
    const holder = await this.deps.experiments.holderOf(experimentId);
    // Ended, with nothing left open: nothing to drive (nor anyone's access to ask for it).
    const { state } = await this.deps.commands.load(experimentHeldBy(holder), experimentId, null);
    if (hasEnded(state)) return;
    // Its runs are driven as the one who started it. The sweep asks whether they still may (their runs may
    // wait for people, so that no command of theirs is refused yet); any other look finds out when refused.
    const cannotRun = async () => (await this.deps.experiments.starterMayRun(experimentId)) === false;
    if (lookAgain !== undefined && (await cannotRun()))
      return this.endForGood(experimentId, holder, state.startedBy, 'starterCannotRun');
    try {
      await this.driveAsStarter(experimentId, holder, lookAgain);
    } catch (error) {
      // Refused because they may no longer run its flow (gone from its workspace, or their role no longer
      // lets them): it cannot go on, and it ends.
      if (!(error instanceof DomainError) || (error.kind !== 'not_found' && error.kind !== 'forbidden'))
        throw error;
      if (!(await cannotRun())) throw error;
      await this.endForGood(experimentId, holder, state.startedBy, 'starterCannotRun');
    }
  }

  /**
   * Ends the experiment that cannot go on (EndExperiment, the decider's to decide: once, however many
   * instances find it at once): stopped with its reason, its open runs finished as stopped.
   */
  private async endForGood(experimentId: string, holder: FlowHolder, startedBy: string, reason: StopReason) {
    const ended = await this.deps.commands.handle(
      experimentHeldBy(holder),
      experimentId,
      startedBy,
      { type: 'EndExperiment', data: { reason } },
      { context: () => ({ now: new Date().toISOString(), userId: startedBy }) },
    );
    for (const event of ended.events)
      if (event.type === 'ExperimentRunFinished') this.waiting.delete(event.data.executionId);
    this.facts.delete(experimentId);
    // Said once: by the instance whose command ended it (another's found it ended, and decided nothing).
    if (ended.events.length > 0)
      this.deps.log.warn({ experimentId, reason }, 'experiment ended: it cannot go on');
  }

  private async driveAsStarter(
    experimentId: string,
    holder: FlowHolder,
    lookAgain?: () => Promise<void>,
  ): Promise<void> {
    const facts = await this.factsFor(experimentId);
    facts.holder = holder;
    let loaded = await this.load(facts);
    loaded = await this.interruptGone(facts, loaded, lookAgain);
    if (loaded.state.stopped) return this.endStoppedRuns(facts, loaded);
    // The sweep reads every waiting run's execution; any other look, those someone decided on.
    loaded = await this.readyDecided(facts, loaded, lookAgain !== undefined);
    const share = Math.ceil(facts.config.concurrency / (await this.liveInstances()));
    for (let tries = 0; tries < 3 * facts.config.concurrency + 3; tries++) {
      const [next] = nextRunsToStart(loaded.state);
      const mine = loaded.state.runs.filter(
        (run) => run.status === 'running' && run.instanceId === this.deps.instance.id,
      ).length;
      if (!next || this.closing || mine >= share) return;
      const started = await this.startRun(facts, loaded, next).catch((error: unknown) => {
        // Another instance started it, or took the last place: look again at the stream as it is. So too
        // when the runs' own events kept moving the stream under every try of the start: the look must not
        // end on it, or the looks asked for meanwhile are lost and the places left free wait for the sweep.
        if (error instanceof DomainError && error.kind === 'conflict') return null;
        if (error instanceof ConcurrencyConflict) return null;
        throw error;
      });
      loaded = started ?? (await this.load(facts));
    }
  }

  /**
   * A stopped experiment's open runs that no driver of this process will end (waiting for people, ready,
   * interrupted, or in flight here with no driver left): each execution stopped, each run finished as
   * stopped. A run in flight on another live instance is its driver's to end.
   */
  private async endStoppedRuns(facts: ExperimentFacts, loaded: Loaded<ExperimentState>) {
    for (const run of openRuns(loaded.state)) {
      if (run.status === 'running' && run.instanceId !== this.deps.instance.id) continue;
      if (run.status === 'running' && this.running.has(`${facts.experimentId}/${run.runKey}`)) continue;
      if (run.executionId === null) continue;
      await this.deps.executions.stop(run.executionId, facts.startedBy).catch(() => null);
      await this.handle(facts, {
        type: 'FinishRun',
        data: { runKey: run.runKey, executionId: run.executionId, outcome: 'stopped' },
      });
    }
  }

  private load(facts: ExperimentFacts): Promise<Loaded<ExperimentState>> {
    return this.deps.commands.load(experimentHeldBy(facts.holder), facts.experimentId, facts.startedBy);
  }

  private handle(
    facts: ExperimentFacts,
    command: ExperimentCommand,
    loaded?: Loaded<ExperimentState>,
  ): Promise<Handled<ExperimentState, unknown>> {
    return this.deps.commands.handle(
      experimentHeldBy(facts.holder),
      facts.experimentId,
      facts.startedBy,
      command,
      { context: () => ({ now: new Date().toISOString(), userId: facts.startedBy }), loaded },
    );
  }

  private factsFor(experimentId: string): Promise<ExperimentFacts> {
    let facts = this.facts.get(experimentId);
    if (!facts) {
      facts = this.deps.factsOf(experimentId);
      facts.catch(() => this.facts.delete(experimentId));
      this.facts.set(experimentId, facts);
    }
    return facts;
  }

  /** Runs in flight on instances that died: interrupted, so they start again. */
  private async interruptGone(
    facts: ExperimentFacts,
    loaded: Loaded<ExperimentState>,
    lookAgain?: () => Promise<void>,
  ): Promise<Loaded<ExperimentState>> {
    const { instance } = this.deps;
    const named = [
      ...new Set(
        loaded.state.runs.flatMap((run) =>
          run.status === 'running' && run.instanceId !== null && run.instanceId !== instance.id
            ? [run.instanceId]
            : [],
        ),
      ),
    ];
    if (named.length === 0) return loaded;
    const freeNow = await instance.gone(named);
    if (freeNow.length === 0) return loaded;
    if (!lookAgain) return loaded;
    await lookAgain();
    const gone = await instance.gone(freeNow);
    let current = loaded;
    for (const run of runsOfGoneInstances(current.state, gone)) {
      if (run.executionId === null) continue;
      current = await this.handle(facts, {
        type: 'InterruptRun',
        data: { runKey: run.runKey, executionId: run.executionId },
      });
    }
    return current;
  }

  /** How many instances are live, counted again once the last count is LIVE_COUNT_MS old. */
  private async liveInstances(): Promise<number> {
    if (performance.now() - this.live.at > LIVE_COUNT_MS)
      this.live = { count: await this.deps.instance.liveInstances(), at: performance.now() };
    return this.live.count;
  }

  /**
   * Runs waiting for people whose people decided: ready to go on. `everyWaiting`: each waiting run's execution
   * is read (the sweep); else only those a decision was heard on.
   */
  private async readyDecided(
    facts: ExperimentFacts,
    loaded: Loaded<ExperimentState>,
    everyWaiting: boolean,
  ): Promise<Loaded<ExperimentState>> {
    let current = loaded;
    for (const run of loaded.state.runs) {
      if (run.status !== 'waiting' || run.executionId === null) continue;
      this.waiting.set(run.executionId, facts.experimentId);
      if (!everyWaiting && !this.decidedOn.delete(run.executionId)) continue;
      const execution = await this.deps.executions.load(run.executionId, facts.startedBy);
      if (this.waitsForPeople(facts, execution.state)) continue;
      this.waiting.delete(run.executionId);
      current = await this.handle(facts, {
        type: 'SetRunReady',
        data: { runKey: run.runKey, executionId: run.executionId },
      });
    }
    return current;
  }

  /** Records the run as started by this instance, then drives it in the background. */
  private async startRun(
    facts: ExperimentFacts,
    loaded: Loaded<ExperimentState>,
    next: RunToStart,
  ): Promise<Loaded<ExperimentState>> {
    const executionId = next.resume ?? randomUUID();
    let reusedFrom: string | undefined;
    if (next.resume === null && next.reuse) {
      const source = await this.deps.executions.load(next.reuse.executionId, null);
      const results = source.state.results.map((r) => ({ stepId: r.stepId, approved: r.approved }));
      if (canReuseFrom(results, next.reuse.stepIds)) reusedFrom = next.reuse.executionId;
    }
    const started = await this.handle(
      facts,
      {
        type: 'StartRun',
        data: { runKey: next.runKey, executionId, reusedFrom, instanceId: this.deps.instance.id },
      },
      loaded,
    );
    const key = `${facts.experimentId}/${next.runKey}`;
    const run = this.runOne(facts, next, executionId, reusedFrom)
      .catch((error) =>
        this.deps.log.error(
          { err: error, experimentId: facts.experimentId, runKey: next.runKey },
          'experiment run',
        ),
      )
      .finally(() => this.running.delete(key));
    this.running.set(key, run);
    return started;
  }

  /** One run, from its execution's start (or where it is) to its end, a wait for people, or this process's stop. */
  private async runOne(
    facts: ExperimentFacts,
    next: RunToStart,
    executionId: string,
    reusedFrom: string | undefined,
  ): Promise<void> {
    const { executions } = this.deps;
    const runKey = next.runKey;
    let execution = await this.executionOf(facts, next, executionId, reusedFrom);
    if (next.resume !== null) execution = await this.failLeftRuns(facts, execution);
    const item = facts.items.get(next.itemId);
    for (;;) {
      const { state } = execution;
      if (state.status === 'stopped' || state.status === 'failed')
        return this.finish(facts, runKey, execution, state.status === 'failed' ? 'failed' : 'stopped');
      // As this process last knew it: a Stop it has not heard of yet stops the execution, which the next
      // look sees.
      let experiment = await this.deps.commands.recent(
        experimentHeldBy(facts.holder),
        facts.experimentId,
        facts.startedBy,
      );
      const ownRun = (loaded: Loaded<ExperimentState>) => {
        const own = loaded.state.runs.find((run) => run.runKey === runKey);
        return own?.status === 'running' && own.executionId === executionId;
      };
      // What this process kept may be older than the run's own start: only the stream says it is not ours.
      if (!ownRun(experiment)) experiment = await this.load(facts);
      if (!ownRun(experiment)) return;
      if (experiment.state.stopped) {
        execution = await executions.stop(executionId, facts.startedBy);
        continue;
      }
      if (this.closing) {
        await this.handle(facts, { type: 'InterruptRun', data: { runKey, executionId } });
        return;
      }
      if (rejectedStep(state)) {
        execution = await executions.stop(executionId, facts.startedBy);
        return this.finish(facts, runKey, execution, 'failed');
      }
      const approved = await this.approveAsTheModeSays(facts, execution, next.itemId);
      execution = approved;
      if (this.waitsForPeople(facts, execution.state)) {
        this.waiting.set(executionId, facts.experimentId);
        await this.handle(facts, { type: 'SetRunWaiting', data: { runKey, executionId } });
        return;
      }
      // Its last step done and every step decided as its mode says.
      if (execution.state.status === 'completed') return this.finish(facts, runKey, execution, 'completed');
      const work = firstPendingCacheItem(execution.state);
      if (!work) {
        // Nothing left to run and nobody to wait for: the execution completes with its last decision.
        execution = await executions.load(executionId, facts.startedBy);
        if (execution.state.status === 'running') return this.finish(facts, runKey, execution, 'completed');
        continue;
      }
      try {
        const ran = await this.deps.stepRunner.run({
          executionId,
          userId: facts.startedBy,
          stepId: work.stepId,
          userInput: item?.inputs[work.stepId] ?? '',
          loopIteration: work.loopIteration === NOT_A_LOOP ? null : work.loopIteration,
        });
        execution = ran.execution;
      } catch (error) {
        execution = await executions.load(executionId, facts.startedBy);
        if (execution.state.status !== 'running') continue;
        // Cut off by this process stopping (the cut may come before the runner hears of the stop): the run
        // is interrupted, to go on elsewhere, and this process starts no more runs.
        if (this.closing || (error instanceof DomainError && error.message === SERVER_STOPPED)) {
          this.closing = true;
          await this.handle(facts, { type: 'InterruptRun', data: { runKey, executionId } });
          return;
        }
        this.deps.log.warn({ err: error, executionId }, 'experiment step run failed');
        execution = await executions.stop(executionId, facts.startedBy);
        return this.finish(facts, runKey, execution, 'failed');
      }
    }
  }

  /**
   * A resumed run's step runs still open were its last driver's, which stopped or died (its run was
   * interrupted only once its instance was found gone): failed as interrupted, as the crash sweep fails them,
   * so the step runs again here.
   */
  private async failLeftRuns(facts: ExperimentFacts, execution: LoadedExecution): Promise<LoadedExecution> {
    let current = execution;
    for (const run of execution.state.runs) {
      if (run.status !== 'running' || this.deps.runs.isRunning(execution.state.id, run.runId)) continue;
      current = await this.deps.executions.handle(current.state.id, facts.startedBy, {
        type: 'FailStepRun',
        data: { runId: run.runId, message: INTERRUPTED, retryable: true },
      });
    }
    return current;
  }

  /** The run's execution: the one it had, else a new one of the flow version (from the baseline's when it reuses). */
  private async executionOf(
    facts: ExperimentFacts,
    next: RunToStart,
    executionId: string,
    reusedFrom: string | undefined,
  ): Promise<LoadedExecution> {
    const { executions } = this.deps;
    if (next.resume !== null) {
      const had = await executions.load(executionId, facts.startedBy).catch(() => null);
      if (had?.state.exists) return had;
    }
    const flow = { steps: facts.steps, version: facts.flowVersion, workspaceId: facts.workspaceId };
    const experimentId = facts.experimentId;
    const flowId = (await this.load(facts)).state.flowId;
    if (reusedFrom !== undefined && next.reuse) {
      const source = await executions.load(reusedFrom, null);
      return executions.handle(
        executionId,
        facts.startedBy,
        {
          type: 'StartExecutionFrom',
          data: {
            executionId,
            flowId,
            fromStepId: next.reuse.fromStepId,
            source: source.state,
            experimentId,
          },
        },
        { flow },
      );
    }
    return executions.handle(
      executionId,
      facts.startedBy,
      { type: 'StartExecution', data: { executionId, flowId, experimentId } },
      { flow },
    );
  }

  /**
   * The steps done and not yet approved, approved as their review mode says: `auto` at once; `judge` when the
   * step's judge passes (its score recorded); `human` never here (its reviewers, or the one who started the
   * experiment, decide).
   */
  private async approveAsTheModeSays(
    facts: ExperimentFacts,
    execution: LoadedExecution,
    itemId: string,
  ): Promise<LoadedExecution> {
    const { config } = facts;
    let current = execution;
    for (const step of facts.steps) {
      const mode = reviewModeOf(config, step.id);
      if (mode === 'human') continue;
      const unapproved = current.state.results.filter(
        (r) => r.stepId === step.id && !r.approved && r.choiceIndex === null && r.origin === undefined,
      );
      if (unapproved.length === 0) continue;
      const lastRun = unapproved.at(-1)!.runId;
      if (mode === 'judge') {
        const passed = await this.judgeStep(facts, current, step.id, itemId);
        if (!passed) continue;
      }
      for (const result of unapproved.filter((r) => r.runId === lastRun)) {
        current = await this.deps.executions.handle(
          current.state.id,
          facts.startedBy,
          { type: 'ApproveResult', data: { resultId: result.id } },
          { loaded: current },
        );
      }
    }
    return current;
  }

  /**
   * Whether the run waits for people: a review of its execution is pending, or a step done whose mode is not
   * `auto` has no approved result (a `human` step with no reviewers of its own, or one a judge did not pass:
   * the one who started the experiment approves it in the execution).
   */
  private waitsForPeople(facts: ExperimentFacts, state: ExecutionState): boolean {
    // A completed execution may still wait: its last step's results, done, are approved by a person.
    if (state.status === 'stopped' || state.status === 'failed') return false;
    if (waitsForReview(state)) return true;
    if (rejectedStep(state)) return false;
    return facts.steps.some((step) => {
      const own = state.results.filter((r) => r.stepId === step.id && r.choiceIndex === null);
      if (
        own.length === 0 ||
        state.executionCache.some((c) => c.stepId === step.id && c.status === 'pending')
      )
        return false;
      return !own.some((r) => r.approved);
    });
  }

  /** The step's judge (the first judge scorer reading it) on its output: its score recorded, and whether it passed. */
  private async judgeStep(
    facts: ExperimentFacts,
    execution: LoadedExecution,
    stepId: string,
    itemId: string,
  ): Promise<boolean> {
    const judge = facts.config.scorers.find(
      (s): s is JudgeDefinition => s.type === 'judge' && scoredStepOf(s, facts.versionSteps) === stepId,
    );
    if (!judge) return false;
    const judged = await this.judge(facts, judge, execution, stepId, itemId);
    if (!judged) return false;
    const experiment = await this.load(facts);
    await this.handle(facts, {
      type: 'RecordScores',
      data: { scores: [judged.score], round: experiment.state.round, judgeUsage: judged.usage },
    });
    return judged.score.value === true;
  }

  /**
   * A judge's score of one step's output, and what its one call with the judge's own model took. null:
   * nothing to judge.
   */
  async judge(
    facts: Pick<ExperimentFacts, 'startedBy' | 'items'>,
    definition: JudgeDefinition,
    loaded: LoadedExecution,
    stepId: string,
    itemId: string,
  ): Promise<{ score: Score; usage: JudgeUsage } | null> {
    const execution = loaded.state;
    const output = stepOutputOf(execution, stepId);
    if (output === null) return null;
    const item = facts.items.get(itemId);
    const runId = randomUUID();
    const model = await this.deps.models.forRun(facts.startedBy, runId, this.deps.sql, definition.model);
    try {
      const request = {
        system: JUDGE_INSTRUCTION,
        prompt: judgePrompt(definition, {
          output,
          expected: item?.expected[stepId] ?? null,
          input: item?.inputs[stepId] ?? null,
        }),
      };
      // The record it judges, as it stood: the execution and the position of its latest event.
      const record = { ...recordAttribute('execution', execution.id), [POSITION]: loaded.version };
      const answer = await observedAnswer(
        model,
        request,
        () => model.provider.stream({ ...request, json: { schema: JUDGE_SCHEMA } }).final,
        record,
      );
      return {
        score: judgeScore(definition, { executionId: execution.id, stepId }, answer.text),
        usage: {
          calls: 1,
          inputTokens: answer.usage?.inputTokens ?? 0,
          outputTokens: answer.usage?.outputTokens ?? 0,
        },
      };
    } finally {
      // A judge's call is the experiment's, not a run of the flow: it takes no free run.
      await this.deps.models.release(runId);
    }
  }

  /** The run's scores (code, judges not yet given, reviews) recorded, then its outcome. */
  private async finish(
    facts: ExperimentFacts,
    runKey: string,
    execution: LoadedExecution,
    outcome: RunOutcome,
  ): Promise<void> {
    this.waiting.delete(execution.state.id);
    const experiment = await this.load(facts);
    const run = experiment.state.runs.find((r) => r.runKey === runKey);
    if (!run || run.status === 'finished' || run.executionId !== execution.state.id) return;
    const { scores, judgeUsage } = await this.scoresOf(facts, experiment.state, run, execution);
    if (scores.length > 0)
      await this.handle(facts, {
        type: 'RecordScores',
        data: { scores, round: experiment.state.round, judgeUsage },
      });
    await this.handle(facts, {
      type: 'FinishRun',
      data: { runKey, executionId: execution.state.id, outcome },
    });
  }

  /** What the run's scorers and people said of its execution, but the judges of `judge` steps (scored as it ran). */
  async scoresOf(
    facts: Pick<ExperimentFacts, 'startedBy' | 'items' | 'versionSteps'>,
    state: ExperimentState,
    run: Pick<RunState, 'itemId'>,
    loaded: LoadedExecution,
    options: { reviews?: boolean; scorerNames?: readonly string[] } = {},
  ): Promise<{ scores: Score[]; judgeUsage: JudgeUsage }> {
    const execution = loaded.state;
    const config = state.config;
    let judgeUsage = NO_JUDGE_USAGE;
    if (!config) return { scores: [], judgeUsage };
    const chosen = config.scorers.filter(
      (s) => options.scorerNames === undefined || options.scorerNames.includes(scorerName(s)),
    );
    const scores: Score[] = codeScoresOf({
      scorers: chosen,
      steps: facts.versionSteps,
      execution,
      item: facts.items.get(run.itemId),
    });
    for (const definition of chosen) {
      if (definition.type !== 'judge') continue;
      const stepId = scoredStepOf(definition, facts.versionSteps);
      if (stepId === null) continue;
      // A judge-mode step's judge scored it as it ran (scoring again asks it again).
      if (options.scorerNames === undefined && reviewModeOf(config, stepId) === 'judge') continue;
      const judged = await this.judge(facts, definition, loaded, stepId, run.itemId).catch(() => null);
      if (!judged) continue;
      scores.push(judged.score);
      judgeUsage = addedJudgeUsage(judgeUsage, judged.usage);
    }
    if (options.reviews !== false) scores.push(...reviewScores(execution));
    return { scores, judgeUsage };
  }
}

/** A step of the execution whose last decided review rejected it (or expired): the run ends there. */
function rejectedStep(state: ExecutionState): boolean {
  const decided = state.reviews.filter((r) => r.status !== 'pending' && r.status !== 'withdrawn');
  const lastByStep = new Map<string, (typeof decided)[number]>();
  for (const review of decided) lastByStep.set(review.stepId, review);
  return [...lastByStep.values()].some((r) => r.status === 'rejected' || r.status === 'expired');
}
