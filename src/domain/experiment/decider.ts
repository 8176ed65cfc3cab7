import type { Decider } from '../decider';
import { conflict, notFound, ruleViolated } from '../errors';
import { inExecutionOrder } from '../execution/step-snapshots';
import { MAX_EXPERIMENTS_PER_FLOW, MAX_RUNNING_EXPERIMENTS_PER_USER } from '../limits';
import { storableText } from '../storable-text';
import type { ExperimentCommand, ExperimentContext } from './commands';
import { checkExperimentConfig } from './config';
import { type ExperimentEvent, type ExperimentState, type RunState, STOP_REASONS } from './events';
import { planReuse, planRuns } from './plan';
import {
  type JudgeUsage,
  SCORE_KINDS,
  SCORE_SOURCES,
  SCORE_TARGETS,
  SCORER_NAME_MAX_LENGTH,
  SCORER_TEXT_MAX_LENGTH,
  type Score,
  scorerName,
} from './scorer-definitions';

/** Scores one command may record: a batch of a scorer's pass, one event well under its size limit. */
export const MAX_SCORES_PER_RECORD = 1_000;
/** A score's comment, and a text score's value. */
export const SCORE_COMMENT_MAX_LENGTH = 2_000;

export const EXPERIMENT_MESSAGES = {
  notFound: 'Không tìm thấy experiment',
  tooManyRunning: `Mỗi người có tối đa ${MAX_RUNNING_EXPERIMENTS_PER_USER} experiment đang chạy cùng lúc: hãy chờ một experiment hoàn tất hoặc dừng nó`,
  tooManyOfFlow: `Mỗi flow có tối đa ${MAX_EXPERIMENTS_PER_FLOW} experiment`,
  exists: 'Experiment đã tồn tại',
  runNotFound: (runKey: string) => `Không tìm thấy lần chạy ${runKey} của experiment`,
  stopped: 'Experiment đã dừng: không lần chạy nào bắt đầu nữa',
  unknownReason: 'Lý do kết thúc experiment không hợp lệ',
  completed: 'Experiment đã hoàn tất',
  runStarted: (runKey: string) => `Lần chạy ${runKey} đã bắt đầu`,
  runNotStarted: (runKey: string) => `Lần chạy ${runKey} chưa bắt đầu`,
  runOfOtherExecution: (runKey: string) => `Lần chạy ${runKey} không phải là execution này`,
  runNotRunning: (runKey: string) => `Lần chạy ${runKey} không đang chạy`,
  executionOfOtherRun: 'Execution này đã thuộc một lần chạy của experiment',
  concurrencyReached: (concurrency: number) =>
    `Đã có ${concurrency} lần chạy đang chạy, bằng concurrency của experiment: hãy chờ một lần chạy kết thúc`,
  notReusable: (runKey: string) =>
    `Lần chạy ${runKey} chỉ có thể dùng lại kết quả của lần chạy cùng mục và cùng lần lặp trong baseline`,
  baselineIsItself: 'baselineId: experiment không thể là baseline của chính nó',
  baselineOfOtherFlow: 'baselineId: baseline phải là một experiment của cùng flow',
  baselineRunning: 'baselineId: baseline chưa kết thúc; hãy chờ nó hoàn tất hoặc dừng nó',
  invalidConfig: (problems: readonly string[]) => problems.join('; '),
  notCompleted:
    'Chỉ experiment đã hoàn tất (mọi lần chạy đã kết thúc, không bị dừng) mới có thể làm baseline',
  noScorers: 'Experiment không có scorer nào để chấm lại',
  unknownScorer: (name: string) => `Experiment không có scorer "${name}"`,
  tooManyScores: `Mỗi lần ghi tối đa ${MAX_SCORES_PER_RECORD} điểm`,
  scoreOfOtherExecution: (executionId: string) =>
    `Execution ${executionId} không phải là một lần chạy của experiment này`,
  scoreOfUnknownStep: (stepId: string) => `Bước ${stepId} không có trong phiên bản flow của experiment`,
  scoreTarget: 'Điểm của cả execution không có stepId; điểm của một bước cần stepId',
  scoreValue: (kind: string) => `Giá trị điểm không hợp với kind ${kind}`,
  scoreField: (field: string) => `Điểm có ${field} không hợp lệ`,
  humanScoreBy: 'Điểm của một người chỉ do chính người đó ghi',
  scoreName: `Tên điểm cần từ 1 đến ${SCORER_NAME_MAX_LENGTH} ký tự`,
  scoreText: (field: string, max: number) => `${field} của điểm tối đa ${max} ký tự`,
  unknownRound: (round: number) => `Lượt chấm ${round} chưa bắt đầu`,
  staleRound: (name: string) =>
    `Scorer "${name}" đã được chấm lại ở một lượt sau: điểm của lượt cũ không được ghi`,
} as const;

/**
 * An experiment's rules, as invariants its stream keeps whatever the commands (each checked by the property
 * tests in decider.property.test.ts):
 * - it is started once, and its flow version, dataset version, settings and runs never change after;
 * - every planned run starts at most once, and again only after it was interrupted (on a new execution or
 *   its own), or after it waited for people and they decided (on its own);
 * - an execution is one run's;
 * - never more runs are in flight than its concurrency (a run waiting for people is not in flight);
 * - no run starts once it is stopped or completed;
 * - it is completed (once) exactly when every planned run has finished, whatever their outcome;
 * - its scores are only of its runs' executions, and of its flow version's steps.
 */
export const decider: Decider<ExperimentState, ExperimentCommand, ExperimentEvent, ExperimentContext> = {
  initialState,
  evolve,
  decide,
};

function initialState(): ExperimentState {
  return {
    experimentId: null,
    flowId: '',
    flowVersion: 0,
    workspaceId: null,
    datasetId: '',
    datasetVersion: 0,
    config: null,
    stepIds: [],
    baselineId: null,
    reuseBefore: null,
    startedBy: '',
    startedAt: null,
    runs: [],
    running: 0,
    finished: 0,
    stopped: null,
    completedAt: null,
    round: 0,
    rescoredIn: {},
    promotedAt: null,
    updatedAt: null,
  };
}

function evolve(state: ExperimentState, event: ExperimentEvent): ExperimentState {
  const next = { ...state, updatedAt: event.data.at };
  switch (event.type) {
    case 'ExperimentStarted': {
      const { data } = event;
      return {
        ...next,
        experimentId: data.experimentId,
        flowId: data.flowId,
        flowVersion: data.flowVersion,
        workspaceId: data.workspaceId,
        datasetId: data.datasetId,
        datasetVersion: data.datasetVersion,
        config: data.config,
        stepIds: data.stepIds,
        baselineId: data.baselineId,
        reuseBefore: data.reuseBefore,
        startedBy: data.startedBy,
        startedAt: data.at,
        runs: data.runs.map((run) => ({
          ...run,
          status: 'planned',
          executionId: null,
          replaced: [],
          reusedFrom: null,
          outcome: null,
          instanceId: null,
          startedAt: null,
          finishedAt: null,
        })),
      };
    }
    case 'ExperimentRunStarted': {
      const { runKey, executionId, reusedFrom, instanceId, at } = event.data;
      const before = state.runs.find((run) => run.runKey === runKey);
      return {
        ...next,
        runs: withRun(state.runs, runKey, (run) => ({
          ...run,
          status: 'running',
          executionId,
          replaced:
            run.executionId === null || run.executionId === executionId
              ? run.replaced
              : [...run.replaced, run.executionId],
          // Going on with its execution, it still has what that execution took from the baseline.
          reusedFrom: reusedFrom ?? (run.executionId === executionId ? run.reusedFrom : null),
          instanceId,
          startedAt: at,
        })),
        running: state.running + (before && before.status !== 'running' ? 1 : 0),
      };
    }
    case 'ExperimentRunFinished': {
      const { runKey, outcome, at } = event.data;
      const before = state.runs.find((run) => run.runKey === runKey);
      if (!before || before.status === 'finished') return next;
      return {
        ...next,
        runs: withRun(state.runs, runKey, (run) => ({ ...run, status: 'finished', outcome, finishedAt: at })),
        running: state.running - (before.status === 'running' ? 1 : 0),
        finished: state.finished + 1,
      };
    }
    case 'ExperimentRunWaiting': {
      const before = state.runs.find((run) => run.runKey === event.data.runKey);
      if (before?.status !== 'running') return next;
      return {
        ...next,
        runs: withRun(state.runs, before.runKey, (run) => ({ ...run, status: 'waiting', instanceId: null })),
        running: state.running - 1,
      };
    }
    case 'ExperimentRunReady': {
      const before = state.runs.find((run) => run.runKey === event.data.runKey);
      if (before?.status !== 'waiting') return next;
      return { ...next, runs: withRun(state.runs, before.runKey, (run) => ({ ...run, status: 'ready' })) };
    }
    case 'ExperimentRunInterrupted': {
      const before = state.runs.find((run) => run.runKey === event.data.runKey);
      if (before?.status !== 'running') return next;
      return {
        ...next,
        runs: withRun(state.runs, before.runKey, (run) => ({
          ...run,
          status: 'interrupted',
          instanceId: null,
        })),
        running: state.running - 1,
      };
    }
    case 'ScoresRecorded':
      return next;
    case 'ScoringRoundStarted': {
      const { round, scorerNames } = event.data;
      const rescoredIn = { ...state.rescoredIn };
      for (const name of scorerNames) rescoredIn[name] = round;
      return { ...next, round, rescoredIn };
    }
    case 'ExperimentStopped': {
      const { by, at, reason } = event.data;
      return { ...next, stopped: reason === undefined ? { by, at } : { by, at, reason } };
    }
    case 'ExperimentCompleted':
      return { ...next, completedAt: event.data.at };
    case 'BaselinePromoted':
      return { ...next, promotedAt: event.data.at };
    default: {
      const unknown: never = event;
      throw new Error(`Unknown experiment event ${(unknown as { type: string }).type}`);
    }
  }
}

function decide(
  command: ExperimentCommand,
  state: ExperimentState,
  { now, userId }: ExperimentContext,
): ExperimentEvent[] {
  if (command.type === 'StartExperiment') {
    if (state.experimentId !== null) throw conflict(EXPERIMENT_MESSAGES.exists);
    return startExperiment(command.data, userId, now);
  }
  const config = state.config;
  if (state.experimentId === null || config === null) throw notFound(EXPERIMENT_MESSAGES.notFound);
  switch (command.type) {
    case 'StartRun': {
      const { runKey, executionId, reusedFrom, instanceId } = command.data;
      if (state.completedAt !== null) throw conflict(EXPERIMENT_MESSAGES.completed);
      if (state.stopped) throw conflict(EXPERIMENT_MESSAGES.stopped);
      const run = runOf(state, runKey);
      if (run.status === 'running' || run.status === 'finished' || run.status === 'waiting')
        throw conflict(EXPERIMENT_MESSAGES.runStarted(runKey));
      if (run.status === 'ready' && run.executionId !== executionId)
        throw conflict(EXPERIMENT_MESSAGES.runOfOtherExecution(runKey));
      if (state.running >= config.concurrency)
        throw conflict(EXPERIMENT_MESSAGES.concurrencyReached(config.concurrency), true);
      // An execution is one run's, and a run goes back to none it left.
      if (
        run.replaced.includes(executionId) ||
        state.runs.some(
          (other) =>
            other.runKey !== runKey &&
            (other.executionId === executionId || other.replaced.includes(executionId)),
        )
      )
        throw conflict(EXPERIMENT_MESSAGES.executionOfOtherRun);
      if (reusedFrom !== undefined && (state.reuseBefore === null || reusedFrom !== run.baselineExecutionId))
        throw ruleViolated(EXPERIMENT_MESSAGES.notReusable(runKey));
      return [
        {
          type: 'ExperimentRunStarted',
          data: {
            runKey,
            executionId,
            ...(reusedFrom === undefined ? {} : { reusedFrom }),
            instanceId,
            at: now,
          },
        },
      ];
    }
    case 'FinishRun': {
      const { runKey, executionId, outcome } = command.data;
      const run = startedRunOf(state, runKey, executionId);
      // Its first outcome stands.
      if (run.status === 'finished') return [];
      const finished: ExperimentEvent[] = [
        { type: 'ExperimentRunFinished', data: { runKey, executionId, outcome, at: now } },
      ];
      if (state.finished + 1 === state.runs.length)
        finished.push({ type: 'ExperimentCompleted', data: { at: now } });
      return finished;
    }
    case 'SetRunWaiting': {
      const { runKey, executionId } = command.data;
      const run = startedRunOf(state, runKey, executionId);
      if (run.status === 'waiting') return [];
      if (run.status !== 'running') throw conflict(EXPERIMENT_MESSAGES.runNotRunning(runKey));
      return [{ type: 'ExperimentRunWaiting', data: { runKey, executionId, at: now } }];
    }
    case 'SetRunReady': {
      const { runKey, executionId } = command.data;
      const run = startedRunOf(state, runKey, executionId);
      // Gone on, ended or interrupted already: it is started again, or not, as its course says.
      if (run.status !== 'waiting') return [];
      return [{ type: 'ExperimentRunReady', data: { runKey, executionId, at: now } }];
    }
    case 'InterruptRun': {
      const { runKey, executionId } = command.data;
      const run = startedRunOf(state, runKey, executionId);
      // No process drives a run that waits for people, nor one that ended.
      if (run.status !== 'running') return [];
      return [{ type: 'ExperimentRunInterrupted', data: { runKey, executionId, at: now } }];
    }
    case 'RecordScores': {
      const { scores, round, judgeUsage } = command.data;
      if (scores.length === 0) return [];
      if (scores.length > MAX_SCORES_PER_RECORD) throw ruleViolated(EXPERIMENT_MESSAGES.tooManyScores);
      if (!Number.isInteger(round) || round < 0 || round > state.round)
        throw ruleViolated(EXPERIMENT_MESSAGES.unknownRound(round));
      const checked = checkedScores(state, scores, round, userId);
      const counted =
        judgeUsage && judgeUsage.calls > 0 && isUsage(judgeUsage)
          ? {
              judgeUsage: {
                calls: judgeUsage.calls,
                inputTokens: judgeUsage.inputTokens,
                outputTokens: judgeUsage.outputTokens,
              },
            }
          : {};
      return [{ type: 'ScoresRecorded', data: { scores: checked, round, ...counted, by: userId, at: now } }];
    }
    case 'ScoreAgain': {
      const names = config.scorers.map(scorerName);
      if (names.length === 0) throw ruleViolated(EXPERIMENT_MESSAGES.noScorers);
      const asked = command.data.scorerNames ?? names;
      const unknown = asked.find((name) => !names.includes(name));
      if (unknown !== undefined) throw notFound(EXPERIMENT_MESSAGES.unknownScorer(unknown));
      const scorerNames = names.filter((name) => asked.includes(name));
      if (scorerNames.length === 0) return [];
      return [
        { type: 'ScoringRoundStarted', data: { round: state.round + 1, scorerNames, by: userId, at: now } },
      ];
    }
    case 'StopExperiment':
      if (state.completedAt !== null) throw conflict(EXPERIMENT_MESSAGES.completed);
      if (state.stopped) return [];
      return [{ type: 'ExperimentStopped', data: { by: userId, at: now } }];
    case 'EndExperiment': {
      // Completed, or ended already (by another instance's sweep too): nothing is left to end.
      if (state.completedAt !== null) return [];
      if (!STOP_REASONS.includes(command.data.reason)) throw ruleViolated(EXPERIMENT_MESSAGES.unknownReason);
      const ended: ExperimentEvent[] = state.stopped
        ? []
        : [{ type: 'ExperimentStopped', data: { by: userId, at: now, reason: command.data.reason } }];
      // Nobody can drive its open runs any more, the one in flight on a live instance included: each ends.
      let finished = state.finished;
      for (const run of state.runs) {
        if (run.status === 'planned' || run.status === 'finished' || run.executionId === null) continue;
        ended.push({
          type: 'ExperimentRunFinished',
          data: { runKey: run.runKey, executionId: run.executionId, outcome: 'stopped', at: now },
        });
        finished++;
      }
      // As a stop that ends the last runs: every run finished, it is completed too.
      if (finished > state.finished && finished === state.runs.length)
        ended.push({ type: 'ExperimentCompleted', data: { at: now } });
      return ended;
    }
    case 'PromoteBaseline':
      // A stopped experiment ran only part of its plan, even when its stop ended its last runs.
      if (state.completedAt === null || state.stopped) throw conflict(EXPERIMENT_MESSAGES.notCompleted);
      return [
        {
          type: 'BaselinePromoted',
          data: {
            experimentId: state.experimentId,
            flowId: state.flowId,
            flowVersion: state.flowVersion,
            by: userId,
            at: now,
          },
        },
      ];
    default: {
      const unknown: never = command;
      throw new Error(`Unknown experiment command ${(unknown as { type: string }).type}`);
    }
  }
}

type StartExperimentData = Extract<ExperimentCommand, { type: 'StartExperiment' }>['data'];

function startExperiment(data: StartExperimentData, userId: string, now: string): ExperimentEvent[] {
  const { experimentId, config, steps, items, baseline } = data;
  if (data.experimentsOfFlow >= MAX_EXPERIMENTS_PER_FLOW)
    throw ruleViolated(EXPERIMENT_MESSAGES.tooManyOfFlow);
  if (data.runningOfUser >= MAX_RUNNING_EXPERIMENTS_PER_USER)
    throw ruleViolated(EXPERIMENT_MESSAGES.tooManyRunning);
  const problems = checkExperimentConfig(config, steps, items);
  if (problems.length > 0) throw ruleViolated(EXPERIMENT_MESSAGES.invalidConfig(problems));
  if (baseline) {
    if (baseline.experimentId === experimentId) throw ruleViolated(EXPERIMENT_MESSAGES.baselineIsItself);
    if (baseline.flowId !== data.flowId) throw ruleViolated(EXPERIMENT_MESSAGES.baselineOfOtherFlow);
    if (!baseline.ended) throw conflict(EXPERIMENT_MESSAGES.baselineRunning);
  }
  const planned = planRuns(items, config.repetitions);
  const { reuseBefore, runs } = baseline
    ? planReuse({
        flowId: data.flowId,
        datasetId: data.datasetId,
        steps,
        config,
        runs: planned,
        baseline,
        changedItemIds: data.changedItemIds ?? [],
      })
    : { reuseBefore: null, runs: planned };
  return [
    {
      type: 'ExperimentStarted',
      data: {
        experimentId,
        flowId: data.flowId,
        flowVersion: data.flowVersion,
        workspaceId: data.workspaceId,
        datasetId: data.datasetId,
        datasetVersion: data.datasetVersion,
        config,
        stepIds: inExecutionOrder(steps).map((step) => step.id),
        runs,
        baselineId: baseline?.experimentId ?? null,
        reuseBefore,
        startedBy: userId,
        at: now,
      },
    },
  ];
}

function runOf(state: ExperimentState, runKey: string): RunState {
  const run = state.runs.find((each) => each.runKey === runKey);
  if (!run) throw notFound(EXPERIMENT_MESSAGES.runNotFound(runKey));
  return run;
}

/** The run, started as the execution `executionId`. */
function startedRunOf(state: ExperimentState, runKey: string, executionId: string): RunState {
  const run = runOf(state, runKey);
  if (run.status === 'planned') throw conflict(EXPERIMENT_MESSAGES.runNotStarted(runKey));
  if (run.executionId !== executionId) throw conflict(EXPERIMENT_MESSAGES.runOfOtherExecution(runKey));
  return run;
}

function withRun(runs: readonly RunState[], runKey: string, change: (run: RunState) => RunState): RunState[] {
  return runs.map((run) => (run.runKey === runKey ? change(run) : run));
}

/**
 * The scores as they are recorded, each checked: of an execution a run of this experiment made, of a step of
 * its flow version (or of the whole execution), its value of its kind, a person's by that person; a code or judge score of one of its
 * scorers, in a round that scorer was not scored again after. Texts a person or a model wrote are made
 * storable.
 */
function checkedScores(
  state: ExperimentState,
  scores: readonly Score[],
  round: number,
  userId: string,
): Score[] {
  const executions = new Set(
    state.runs.flatMap((run) => (run.executionId === null ? [] : [run.executionId])),
  );
  const scorerNames = new Set((state.config?.scorers ?? []).map(scorerName));
  return scores.map((score) => {
    if (!executions.has(score.executionId))
      throw ruleViolated(EXPERIMENT_MESSAGES.scoreOfOtherExecution(score.executionId));
    if (!SCORE_TARGETS.includes(score.target)) throw ruleViolated(EXPERIMENT_MESSAGES.scoreField('target'));
    if (!SCORE_KINDS.includes(score.kind)) throw ruleViolated(EXPERIMENT_MESSAGES.scoreField('kind'));
    if (!SCORE_SOURCES.includes(score.source)) throw ruleViolated(EXPERIMENT_MESSAGES.scoreField('source'));
    if ((score.target === 'step') !== (score.stepId !== null))
      throw ruleViolated(EXPERIMENT_MESSAGES.scoreTarget);
    if (score.stepId !== null && !state.stepIds.includes(score.stepId))
      throw ruleViolated(EXPERIMENT_MESSAGES.scoreOfUnknownStep(score.stepId));
    const name = typeof score.name === 'string' ? score.name.trim() : '';
    if (name === '' || name.length > SCORER_NAME_MAX_LENGTH)
      throw ruleViolated(EXPERIMENT_MESSAGES.scoreName);
    if (typeof score.by !== 'string' || score.by === '')
      throw ruleViolated(EXPERIMENT_MESSAGES.scoreField('by'));
    if (score.source === 'human' && score.by !== userId) throw ruleViolated(EXPERIMENT_MESSAGES.humanScoreBy);
    if (!valueFitsKind(score)) throw ruleViolated(EXPERIMENT_MESSAGES.scoreValue(score.kind));
    if (typeof score.value === 'string' && score.value.length > SCORER_TEXT_MAX_LENGTH)
      throw ruleViolated(EXPERIMENT_MESSAGES.scoreText('value', SCORER_TEXT_MAX_LENGTH));
    if (score.comment !== null && typeof score.comment !== 'string')
      throw ruleViolated(EXPERIMENT_MESSAGES.scoreField('comment'));
    if (score.comment !== null && score.comment.length > SCORE_COMMENT_MAX_LENGTH)
      throw ruleViolated(EXPERIMENT_MESSAGES.scoreText('comment', SCORE_COMMENT_MAX_LENGTH));
    if (score.source === 'code' || score.source === 'judge') {
      if (!scorerNames.has(name)) throw notFound(EXPERIMENT_MESSAGES.unknownScorer(name));
      if (round < (state.rescoredIn[name] ?? 0)) throw conflict(EXPERIMENT_MESSAGES.staleRound(name));
    }
    return {
      target: score.target,
      executionId: score.executionId,
      stepId: score.stepId,
      name: storableText(name),
      kind: score.kind,
      value: typeof score.value === 'string' ? storableText(score.value) : score.value,
      source: score.source,
      by: score.by,
      comment: score.comment === null ? null : storableText(score.comment),
    };
  });
}

/** Counts a judge's usage may hold: whole numbers, none below zero. */
const isUsage = (usage: JudgeUsage) =>
  [usage.calls, usage.inputTokens, usage.outputTokens].every((n) => Number.isSafeInteger(n) && n >= 0);

function valueFitsKind({ kind, value }: Pick<Score, 'kind' | 'value'>): boolean {
  switch (kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return typeof value === 'string';
  }
}
