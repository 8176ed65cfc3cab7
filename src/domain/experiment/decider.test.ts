import { describe, expect, it } from 'vitest';
import { MAX_EXPERIMENTS_PER_FLOW, MAX_RUNNING_EXPERIMENTS_PER_USER } from '../limits';
import { given } from '../testing';
import { CONFIG_MESSAGES } from './config';
import { decider, EXPERIMENT_MESSAGES, MAX_SCORES_PER_RECORD } from './decider';
import type { ExperimentEvent } from './events';
import { planRuns } from './plan';
import {
  baselineFactsOf,
  experimentStatus,
  nextRunsToStart,
  openRuns,
  runsOfGoneInstances,
  scoreCounts,
} from './queries';
import {
  AT_NOW,
  aScore,
  aStep,
  completed,
  configOf,
  DATASET_ID,
  EARLIER,
  EXPERIMENT_ID,
  experimentStarted,
  FLOW_ID,
  finishRun,
  ITEMS,
  NOW,
  OWNER,
  runFinished,
  runInterrupted,
  runStarted,
  STEPS,
  startExperiment,
  startRun,
  stopped,
} from './testing';

const started = experimentStarted();
const A = 'item-a#1';
const B = 'item-b#1';
const D = 'item-d#1';

describe('experiment decider', () => {
  describe('StartExperiment', () => {
    it('fixes the experiment: its versions, its settings and every run, one per item not archived and repetition', () => {
      const config = configOf({ repetitions: 2, concurrency: 2 });
      const { state } = given(decider, [], AT_NOW)
        .when(startExperiment({ config }))
        .thenEmits([
          {
            type: 'ExperimentStarted',
            data: {
              experimentId: EXPERIMENT_ID,
              flowId: FLOW_ID,
              flowVersion: 7,
              workspaceId: null,
              datasetId: DATASET_ID,
              datasetVersion: 3,
              config,
              stepIds: STEPS.map((step) => step.id),
              runs: [
                { runKey: 'item-a#1', itemId: 'item-a', repetition: 1 },
                { runKey: 'item-b#1', itemId: 'item-b', repetition: 1 },
                { runKey: 'item-d#1', itemId: 'item-d', repetition: 1 },
                { runKey: 'item-a#2', itemId: 'item-a', repetition: 2 },
                { runKey: 'item-b#2', itemId: 'item-b', repetition: 2 },
                { runKey: 'item-d#2', itemId: 'item-d', repetition: 2 },
              ],
              baselineId: null,
              reuseBefore: null,
              startedBy: OWNER,
              at: NOW,
            },
          },
        ]);
      expect(experimentStatus(state)).toBe('running');
      expect(state.runs.every((run) => run.status === 'planned')).toBe(true);
    });

    it('is started once', () => {
      given(decider, [started], AT_NOW)
        .when(startExperiment())
        .thenThrows('conflict', EXPERIMENT_MESSAGES.exists);
    });

    it(`is refused to whoever has ${MAX_RUNNING_EXPERIMENTS_PER_USER} running, and on a flow of ${MAX_EXPERIMENTS_PER_FLOW}`, () => {
      given(decider, [], AT_NOW)
        .when(startExperiment({ runningOfUser: MAX_RUNNING_EXPERIMENTS_PER_USER - 1 }))
        .events();
      given(decider, [], AT_NOW)
        .when(startExperiment({ runningOfUser: MAX_RUNNING_EXPERIMENTS_PER_USER }))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.tooManyRunning);
      given(decider, [], AT_NOW)
        .when(startExperiment({ experimentsOfFlow: MAX_EXPERIMENTS_PER_FLOW - 1 }))
        .events();
      given(decider, [], AT_NOW)
        .when(startExperiment({ experimentsOfFlow: MAX_EXPERIMENTS_PER_FLOW }))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.tooManyOfFlow);
    });

    it('is refused when its settings do not fit the flow version or the dataset, every problem named', () => {
      const config = configOf({
        models: { nope: 'openai:gpt-4.1-mini' },
        review: { [STEPS[0]!.id]: 'judge' },
      });
      given(decider, [], AT_NOW)
        .when(startExperiment({ config, items: [{ id: 'x', archived: true }] }))
        .thenThrows(
          'rule_violated',
          [
            CONFIG_MESSAGES.noItems,
            CONFIG_MESSAGES.unknownStep('models', 'nope'),
            CONFIG_MESSAGES.judgeWithoutScorer(STEPS[0]!.id),
          ].join('; '),
        );
    });

    it('is refused against a baseline of another flow, itself, or one still running', () => {
      const baseline = {
        experimentId: 'experiment-0',
        flowId: FLOW_ID,
        datasetId: DATASET_ID,
        steps: STEPS,
        config: configOf(),
        completedRuns: [],
        ended: true,
      };
      given(decider, [], AT_NOW)
        .when(startExperiment({ baseline: { ...baseline, flowId: 'flow-2' } }))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.baselineOfOtherFlow);
      given(decider, [], AT_NOW)
        .when(startExperiment({ baseline: { ...baseline, experimentId: EXPERIMENT_ID } }))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.baselineIsItself);
      given(decider, [], AT_NOW)
        .when(startExperiment({ baseline: { ...baseline, ended: false } }))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.baselineRunning);
    });

    it("against a baseline, reuses the baseline runs' steps before the first that changed", () => {
      const changed = [STEPS[0]!, STEPS[1]!, aStep(3, { systemPrompt: 'Better prompt 3' })];
      const events = given(decider, [], AT_NOW)
        .when(
          startExperiment({
            steps: changed,
            baseline: {
              experimentId: 'experiment-0',
              flowId: FLOW_ID,
              datasetId: DATASET_ID,
              steps: STEPS,
              config: configOf(),
              completedRuns: [
                { runKey: A, executionId: 'base-a' },
                { runKey: B, executionId: 'base-b' },
              ],
              ended: true,
            },
            changedItemIds: ['item-b'],
          }),
        )
        .events();
      const data = (events[0] as Extract<ExperimentEvent, { type: 'ExperimentStarted' }>).data;
      expect(data.baselineId).toBe('experiment-0');
      expect(data.reuseBefore).toBe(STEPS[2]!.id);
      expect(data.runs).toEqual([
        { runKey: A, itemId: 'item-a', repetition: 1, baselineExecutionId: 'base-a' },
        { runKey: B, itemId: 'item-b', repetition: 1 },
        { runKey: D, itemId: 'item-d', repetition: 1 },
      ]);
    });
  });

  describe('a command before the experiment started', () => {
    it('finds no experiment', () => {
      for (const command of [
        startRun(A, 'e1'),
        finishRun(A, 'e1'),
        { type: 'StopExperiment' as const, data: {} },
        { type: 'PromoteBaseline' as const, data: {} },
        { type: 'ScoreAgain' as const, data: {} },
      ])
        given(decider, [], AT_NOW).when(command).thenThrows('not_found', EXPERIMENT_MESSAGES.notFound);
    });
  });

  describe('StartRun', () => {
    it('starts a planned run as an execution', () => {
      const { state } = given(decider, [started], AT_NOW)
        .when(startRun(A, 'e1'))
        .thenEmits([
          { type: 'ExperimentRunStarted', data: { runKey: A, executionId: 'e1', instanceId: 1, at: NOW } },
        ]);
      expect(state.running).toBe(1);
      expect(state.runs[0]).toMatchObject({ status: 'running', executionId: 'e1', startedAt: NOW });
    });

    it('starts a run once', () => {
      given(decider, [started, runStarted(A, 'e1')], AT_NOW)
        .when(startRun(A, 'e2'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runStarted(A));
      given(decider, [started, runStarted(A, 'e1'), runFinished(A, 'e1')], AT_NOW)
        .when(startRun(A, 'e2'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runStarted(A));
    });

    it('starts an interrupted run again, as a new execution or its own', () => {
      const history = [started, runStarted(A, 'e1'), runInterrupted(A, 'e1')];
      given(decider, history, AT_NOW).when(startRun(A, 'e2')).events();
      const { state } = given(decider, history, AT_NOW)
        .when(startRun(A, 'e1'))
        .thenEmits([
          { type: 'ExperimentRunStarted', data: { runKey: A, executionId: 'e1', instanceId: 1, at: NOW } },
        ]);
      expect(state.running).toBe(1);
    });

    it('refuses a run the plan does not have', () => {
      given(decider, [started], AT_NOW)
        .when(startRun('item-c#1', 'e1'))
        .thenThrows('not_found', EXPERIMENT_MESSAGES.runNotFound('item-c#1'));
    });

    it('refuses more runs in flight than the concurrency, to be tried again later', () => {
      const history = [experimentStarted({ config: configOf({ concurrency: 2 }) }), runStarted(A, 'e1')];
      const { state } = given(decider, history, AT_NOW)
        .when(startRun(B, 'e2'))
        .thenEmits([
          { type: 'ExperimentRunStarted', data: { runKey: B, executionId: 'e2', instanceId: 1, at: NOW } },
        ]);
      expect(state.running).toBe(2);
      given(decider, [...history, runStarted(B, 'e2')], AT_NOW)
        .when(startRun(D, 'e3'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.concurrencyReached(2));
      expect(() => decider.decide(startRun(D, 'e3'), state, AT_NOW)).toThrow(
        expect.objectContaining({ retryable: true }),
      );
      // A run that finished or was interrupted leaves room.
      given(decider, [...history, runStarted(B, 'e2'), runFinished(A, 'e1')], AT_NOW)
        .when(startRun(D, 'e3'))
        .events();
      given(decider, [...history, runStarted(B, 'e2'), runInterrupted(A, 'e1')], AT_NOW)
        .when(startRun(D, 'e3'))
        .events();
    });

    it('refuses an execution that another run has or had, and one the run left', () => {
      given(decider, [started, runStarted(A, 'e1')], AT_NOW)
        .when(startRun(B, 'e1'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.executionOfOtherRun);
      const restarted = [started, runStarted(A, 'e1'), runInterrupted(A, 'e1'), runStarted(A, 'e2')];
      expect(given(decider, restarted, AT_NOW).state.runs[0]).toMatchObject({
        executionId: 'e2',
        replaced: ['e1'],
      });
      given(decider, restarted, AT_NOW)
        .when(startRun(B, 'e1'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.executionOfOtherRun);
      given(decider, [...restarted, runInterrupted(A, 'e2')], AT_NOW)
        .when(startRun(A, 'e1'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.executionOfOtherRun);
    });

    it('starts nothing once stopped or completed', () => {
      given(decider, [started, stopped], AT_NOW)
        .when(startRun(A, 'e1'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.stopped);
      const one = experimentStarted({ runs: planRuns([{ id: 'item-a' }], 1) });
      given(decider, [one, runStarted(A, 'e1'), runFinished(A, 'e1'), completed], AT_NOW)
        .when(startRun(A, 'e2'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.completed);
    });

    it("reuses only the run's own baseline execution, and only when the experiment reuses", () => {
      const runs = planRuns(ITEMS, 1).map((run) =>
        run.itemId === 'item-a' ? { ...run, baselineExecutionId: 'base-a' } : run,
      );
      const reusing = experimentStarted({ runs, reuseBefore: STEPS[1]!.id, baselineId: 'experiment-0' });
      given(decider, [reusing], AT_NOW)
        .when(startRun(A, 'e1', 'base-a'))
        .thenEmits([
          {
            type: 'ExperimentRunStarted',
            data: { runKey: A, executionId: 'e1', reusedFrom: 'base-a', instanceId: 1, at: NOW },
          },
        ]);
      given(decider, [reusing], AT_NOW)
        .when(startRun(B, 'e1', 'base-a'))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.notReusable(B));
      given(decider, [experimentStarted({ runs })], AT_NOW)
        .when(startRun(A, 'e1', 'base-a'))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.notReusable(A));
    });
  });

  describe('FinishRun', () => {
    it("records the run's outcome; the last run's finish completes the experiment", () => {
      const history = [started, runStarted(A, 'e1'), runStarted(B, 'e2'), runFinished(B, 'e2', 'failed')];
      given(decider, history, AT_NOW)
        .when(finishRun(A, 'e1'))
        .thenEmits([
          {
            type: 'ExperimentRunFinished',
            data: { runKey: A, executionId: 'e1', outcome: 'completed', at: NOW },
          },
        ]);
      const { state } = given(decider, [...history, runStarted(D, 'e3'), runFinished(A, 'e1')], AT_NOW)
        .when(finishRun(D, 'e3', 'stopped'))
        .thenEmits([
          runFinished(D, 'e3', 'stopped', NOW),
          { type: 'ExperimentCompleted', data: { at: NOW } },
        ]);
      expect(experimentStatus(state)).toBe('completed');
      expect(state.running).toBe(0);
    });

    it('keeps the first outcome of a run', () => {
      given(decider, [started, runStarted(A, 'e1'), runFinished(A, 'e1')], AT_NOW)
        .when(finishRun(A, 'e1', 'failed'))
        .thenEmits([]);
    });

    it('finishes an interrupted run whose execution ended', () => {
      given(decider, [started, runStarted(A, 'e1'), runInterrupted(A, 'e1')], AT_NOW)
        .when(finishRun(A, 'e1'))
        .thenEmits([
          {
            type: 'ExperimentRunFinished',
            data: { runKey: A, executionId: 'e1', outcome: 'completed', at: NOW },
          },
        ]);
    });

    it('is refused for a run not started, or for another execution than the run has', () => {
      given(decider, [started], AT_NOW)
        .when(finishRun(A, 'e1'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runNotStarted(A));
      given(decider, [started, runStarted(A, 'e1')], AT_NOW)
        .when(finishRun(A, 'e9'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runOfOtherExecution(A));
      given(decider, [started], AT_NOW)
        .when(finishRun('nope#1', 'e1'))
        .thenThrows('not_found', EXPERIMENT_MESSAGES.runNotFound('nope#1'));
    });

    it('finishes runs in flight after a stop, without completing what did not run', () => {
      const { state } = given(decider, [started, runStarted(A, 'e1'), stopped], AT_NOW)
        .when(finishRun(A, 'e1', 'stopped'))
        .thenEmits([runFinished(A, 'e1', 'stopped', NOW)]);
      expect(experimentStatus(state)).toBe('stopped');
    });
  });

  describe('SetRunWaiting and SetRunReady', () => {
    const waits = (runKey: string, executionId: string) =>
      ({ type: 'SetRunWaiting', data: { runKey, executionId } }) as const;
    const ready = (runKey: string, executionId: string) =>
      ({ type: 'SetRunReady', data: { runKey, executionId } }) as const;
    const config = configOf({ concurrency: 1 });
    const history = [experimentStarted({ config }), runStarted(A, 'e1')];
    const waiting: ExperimentEvent = {
      type: 'ExperimentRunWaiting',
      data: { runKey: A, executionId: 'e1', at: NOW },
    };
    const isReady: ExperimentEvent = {
      type: 'ExperimentRunReady',
      data: { runKey: A, executionId: 'e1', at: NOW },
    };

    it('lets a run that waits for people leave its place in flight to the next', () => {
      const { state } = given(decider, history, AT_NOW).when(waits(A, 'e1')).thenEmits([waiting]);
      expect(state.running).toBe(0);
      expect(state.runs[0]!.status).toBe('waiting');
      expect(nextRunsToStart(state).map((run) => run.runKey)).toEqual([B]);
      given(decider, [...history, waiting], AT_NOW)
        .when(startRun(B, 'e2'))
        .events();
      given(decider, [...history, waiting], AT_NOW)
        .when(startRun(A, 'e1'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runStarted(A));
      given(decider, [...history, waiting], AT_NOW)
        .when(waits(A, 'e1'))
        .thenEmits([]);
    });

    it('is refused for a run not in flight, or for another execution', () => {
      given(decider, history, AT_NOW)
        .when(waits(B, 'e2'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runNotStarted(B));
      given(decider, [...history, runFinished(A, 'e1')], AT_NOW)
        .when(waits(A, 'e1'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runNotRunning(A));
      given(decider, history, AT_NOW)
        .when(waits(A, 'e9'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runOfOtherExecution(A));
    });

    it('once people decided, the run goes on with its own execution before any other starts', () => {
      const { state } = given(decider, [...history, waiting], AT_NOW)
        .when(ready(A, 'e1'))
        .thenEmits([isReady]);
      expect(nextRunsToStart(state)).toEqual([
        { runKey: A, itemId: 'item-a', repetition: 1, reuse: null, resume: 'e1' },
      ]);
      given(decider, [...history, waiting, isReady], AT_NOW)
        .when(startRun(A, 'e2'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runOfOtherExecution(A));
      const going = given(decider, [...history, waiting, isReady], AT_NOW)
        .when(startRun(A, 'e1'))
        .thenEmits([
          { type: 'ExperimentRunStarted', data: { runKey: A, executionId: 'e1', instanceId: 1, at: NOW } },
        ]);
      expect(going.state.running).toBe(1);
      // Ready already, gone on, or ended: nothing to do.
      given(decider, [...history, waiting, isReady], AT_NOW)
        .when(ready(A, 'e1'))
        .thenEmits([]);
      given(decider, history, AT_NOW).when(ready(A, 'e1')).thenEmits([]);
    });

    it('finishes a run that waits, and does not interrupt it (no process drives it)', () => {
      given(decider, [...history, waiting], AT_NOW)
        .when(finishRun(A, 'e1', 'failed'))
        .thenEmits([
          {
            type: 'ExperimentRunFinished',
            data: { runKey: A, executionId: 'e1', outcome: 'failed', at: NOW },
          },
        ]);
      given(decider, [...history, waiting], AT_NOW)
        .when({ type: 'InterruptRun', data: { runKey: A, executionId: 'e1' } })
        .thenEmits([]);
    });
  });

  describe('InterruptRun', () => {
    const interrupt = (runKey: string, executionId: string) =>
      ({ type: 'InterruptRun', data: { runKey, executionId } }) as const;

    it('takes a run in flight out of the count, to be started again', () => {
      const { state } = given(decider, [started, runStarted(A, 'e1')], AT_NOW)
        .when(interrupt(A, 'e1'))
        .thenEmits([{ type: 'ExperimentRunInterrupted', data: { runKey: A, executionId: 'e1', at: NOW } }]);
      expect(state.running).toBe(0);
      expect(nextRunsToStart(state)[0]).toMatchObject({ runKey: A, resume: 'e1' });
    });

    it('names the runs in flight of instances that died', () => {
      const onTwo = runStarted(B, 'e2') as Extract<ExperimentEvent, { type: 'ExperimentRunStarted' }>;
      const history = [started, runStarted(A, 'e1'), { ...onTwo, data: { ...onTwo.data, instanceId: 2 } }];
      const state = given(decider, history, AT_NOW).state;
      expect(runsOfGoneInstances(state, [2]).map((run) => run.runKey)).toEqual([B]);
      expect(runsOfGoneInstances(state, [3])).toEqual([]);
    });

    it('keeps what a run took from its baseline when it goes on with its execution', () => {
      const runs = planRuns(ITEMS, 1).map((run) =>
        run.itemId === 'item-a' ? { ...run, baselineExecutionId: 'base-a' } : run,
      );
      const reusing = experimentStarted({ runs, reuseBefore: STEPS[1]!.id, baselineId: 'experiment-0' });
      const { state } = given(
        decider,
        [reusing, runStarted(A, 'e1', 'base-a'), runInterrupted(A, 'e1')],
        AT_NOW,
      )
        .when(startRun(A, 'e1'))
        .thenEmits([
          { type: 'ExperimentRunStarted', data: { runKey: A, executionId: 'e1', instanceId: 1, at: NOW } },
        ]);
      expect(state.runs[0]!.reusedFrom).toBe('base-a');
    });

    it('does nothing to a run interrupted or finished, and is refused for one not started or another execution', () => {
      given(decider, [started, runStarted(A, 'e1'), runInterrupted(A, 'e1')], AT_NOW)
        .when(interrupt(A, 'e1'))
        .thenEmits([]);
      given(decider, [started, runStarted(A, 'e1'), runFinished(A, 'e1')], AT_NOW)
        .when(interrupt(A, 'e1'))
        .thenEmits([]);
      given(decider, [started], AT_NOW)
        .when(interrupt(A, 'e1'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runNotStarted(A));
      given(decider, [started, runStarted(A, 'e1')], AT_NOW)
        .when(interrupt(A, 'e2'))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.runOfOtherExecution(A));
    });
  });

  describe('RecordScores', () => {
    const scorers = [
      { type: 'equals' as const },
      { type: 'judge' as const, model: 'openai:gpt-4.1', prompt: 'Ok?' },
    ];
    const withScorers = experimentStarted({ config: configOf({ scorers }) });
    const history = [withScorers, runStarted(A, 'execution-a')];
    const record = (scores: ReturnType<typeof aScore>[], round = 0) =>
      ({ type: 'RecordScores', data: { scores, round } }) as const;

    it("records scores of the experiment's executions, by whoever gives them", () => {
      const scores = [
        aScore(),
        aScore({
          target: 'execution',
          stepId: null,
          name: 'Hay',
          kind: 'number',
          value: 4,
          source: 'human',
          by: 'u2',
        }),
        aScore({ name: 'judge', source: 'judge', by: 'openai:gpt-4.1', comment: 'Tốt' }),
      ];
      given(decider, history, { now: NOW, userId: 'u2' })
        .when(record(scores))
        .thenEmits([{ type: 'ScoresRecorded', data: { scores, round: 0, by: 'u2', at: NOW } }]);
      given(decider, history, AT_NOW).when(record([])).thenEmits([]);
    });

    it('refuses scores of an execution that is none of its runs', () => {
      given(decider, history, AT_NOW)
        .when(record([aScore({ executionId: 'elsewhere' })]))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.scoreOfOtherExecution('elsewhere'));
      // The execution a run had before it was interrupted and started as another.
      given(decider, [...history, runInterrupted(A, 'execution-a'), runStarted(A, 'execution-a2')], AT_NOW)
        .when(record([aScore()]))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.scoreOfOtherExecution('execution-a'));
    });

    it('refuses a score that does not hold together', () => {
      const refused: [Partial<ReturnType<typeof aScore>>, string][] = [
        [{ stepId: 'nope' }, EXPERIMENT_MESSAGES.scoreOfUnknownStep('nope')],
        [{ stepId: null }, EXPERIMENT_MESSAGES.scoreTarget],
        [{ target: 'execution' }, EXPERIMENT_MESSAGES.scoreTarget],
        [{ kind: 'number', value: 'high' }, EXPERIMENT_MESSAGES.scoreValue('number')],
        [{ kind: 'number', value: Number.NaN }, EXPERIMENT_MESSAGES.scoreValue('number')],
        [{ kind: 'category', value: 1 }, EXPERIMENT_MESSAGES.scoreValue('category')],
        [{ name: '  ' }, EXPERIMENT_MESSAGES.scoreName],
        [{ comment: 'x'.repeat(2_001) }, EXPERIMENT_MESSAGES.scoreText('comment', 2_000)],
      ];
      for (const [fields, message] of refused)
        given(decider, history, AT_NOW)
          .when(record([aScore(fields)]))
          .thenThrows('rule_violated', message);
      given(decider, history, AT_NOW)
        .when(record(Array.from({ length: MAX_SCORES_PER_RECORD + 1 }, () => aScore())))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.tooManyScores);
    });

    it("refuses a person's score given by someone else", () => {
      given(decider, history, AT_NOW)
        .when(record([aScore({ name: 'Hay', source: 'human', by: 'u2' })]))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.humanScoreBy);
    });

    it('refuses a code or judge score of a scorer the experiment does not have', () => {
      given(decider, history, AT_NOW)
        .when(record([aScore({ name: 'regex' })]))
        .thenThrows('not_found', EXPERIMENT_MESSAGES.unknownScorer('regex'));
    });

    it('refuses scores of a round not started, or of a round before the scorer was scored again', () => {
      given(decider, history, AT_NOW)
        .when(record([aScore()], 1))
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.unknownRound(1));
      const again: ExperimentEvent = {
        type: 'ScoringRoundStarted',
        data: { round: 1, scorerNames: ['equals'], by: OWNER, at: EARLIER },
      };
      given(decider, [...history, again], AT_NOW)
        .when(record([aScore()], 0))
        .thenThrows('conflict', EXPERIMENT_MESSAGES.staleRound('equals'));
      // A scorer not scored again still takes its scores of the earlier round.
      given(decider, [...history, again], AT_NOW)
        .when(record([aScore({ name: 'judge', source: 'judge' })], 0))
        .events();
      given(decider, [...history, again], AT_NOW)
        .when(record([aScore()], 1))
        .events();
    });
  });

  describe('ScoreAgain', () => {
    const scorers = [{ type: 'equals' as const }, { type: 'length' as const, name: 'Độ dài', max: 100 }];
    const history = [experimentStarted({ config: configOf({ scorers }) })];

    it('starts a new scoring round of the scorers named, or of all', () => {
      const { state } = given(decider, history, AT_NOW)
        .when({ type: 'ScoreAgain', data: {} })
        .thenEmits([
          {
            type: 'ScoringRoundStarted',
            data: { round: 1, scorerNames: ['equals', 'Độ dài'], by: OWNER, at: NOW },
          },
        ]);
      expect(state.round).toBe(1);
      given(decider, history, AT_NOW)
        .when({ type: 'ScoreAgain', data: { scorerNames: ['Độ dài'] } })
        .thenEmits([
          { type: 'ScoringRoundStarted', data: { round: 1, scorerNames: ['Độ dài'], by: OWNER, at: NOW } },
        ]);
    });

    it("voids the scorer's scores of earlier rounds, never a person's or a review's", () => {
      const { state } = given(decider, history, AT_NOW)
        .when({ type: 'ScoreAgain', data: { scorerNames: ['equals'] } })
        .thenEmits([
          { type: 'ScoringRoundStarted', data: { round: 1, scorerNames: ['equals'], by: OWNER, at: NOW } },
        ]);
      expect(scoreCounts(state, 0, { name: 'equals', source: 'code' })).toBe(false);
      expect(scoreCounts(state, 1, { name: 'equals', source: 'code' })).toBe(true);
      expect(scoreCounts(state, 0, { name: 'Độ dài', source: 'code' })).toBe(true);
      expect(scoreCounts(state, 0, { name: 'equals', source: 'human' })).toBe(true);
      expect(scoreCounts(state, 0, { name: 'equals', source: 'review' })).toBe(true);
    });

    it('is refused for a scorer it does not have, or an experiment without scorers', () => {
      given(decider, history, AT_NOW)
        .when({ type: 'ScoreAgain', data: { scorerNames: ['regex'] } })
        .thenThrows('not_found', EXPERIMENT_MESSAGES.unknownScorer('regex'));
      given(decider, [started], AT_NOW)
        .when({ type: 'ScoreAgain', data: {} })
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.noScorers);
    });
  });

  describe('StopExperiment', () => {
    const stop = { type: 'StopExperiment', data: {} } as const;

    it('stops it once: nothing starts after', () => {
      const { state } = given(decider, [started, runStarted(A, 'e1')], AT_NOW)
        .when(stop)
        .thenEmits([{ type: 'ExperimentStopped', data: { by: OWNER, at: NOW } }]);
      expect(experimentStatus(state)).toBe('stopping');
      expect(nextRunsToStart(state)).toEqual([]);
      given(decider, [started, stopped], AT_NOW).when(stop).thenEmits([]);
    });

    it('is refused once completed', () => {
      const one = experimentStarted({ runs: planRuns([{ id: 'item-a' }], 1) });
      given(decider, [one, runStarted(A, 'e1'), runFinished(A, 'e1'), completed], AT_NOW)
        .when(stop)
        .thenThrows('conflict', EXPERIMENT_MESSAGES.completed);
    });
  });

  describe('EndExperiment', () => {
    const end = { type: 'EndExperiment', data: { reason: 'starterCannotRun' } } as const;
    const B = 'item-b#1';
    const waiting = (runKey: string, executionId: string): ExperimentEvent => ({
      type: 'ExperimentRunWaiting',
      data: { runKey, executionId, at: EARLIER },
    });

    it('stops it with its reason and ends every open run, the one in flight too: nothing starts after', () => {
      const { state } = given(
        decider,
        [started, runStarted(A, 'e1'), waiting(A, 'e1'), runStarted(B, 'e2')],
        AT_NOW,
      )
        .when(end)
        .thenEmits([
          { type: 'ExperimentStopped', data: { by: OWNER, at: NOW, reason: 'starterCannotRun' } },
          runFinished(A, 'e1', 'stopped', NOW),
          runFinished(B, 'e2', 'stopped', NOW),
        ]);
      expect(state.stopped).toEqual({ by: OWNER, at: NOW, reason: 'starterCannotRun' });
      expect(openRuns(state)).toEqual([]);
      expect(experimentStatus(state)).toBe('stopped');
      expect(nextRunsToStart(state)).toEqual([]);
    });

    it("is idempotent: ended once, a second end (another instance's sweep) records nothing", () => {
      const once = [
        started,
        runStarted(A, 'e1'),
        waiting(A, 'e1'),
        { type: 'ExperimentStopped', data: { by: OWNER, at: NOW, reason: 'starterCannotRun' } },
        runFinished(A, 'e1', 'stopped'),
      ] as ExperimentEvent[];
      given(decider, once, AT_NOW).when(end).thenEmits([]);
    });

    it("ends the open runs of one a person stopped, keeping that stop's who and when", () => {
      const { state } = given(decider, [started, runStarted(A, 'e1'), stopped], AT_NOW)
        .when(end)
        .thenEmits([runFinished(A, 'e1', 'stopped', NOW)]);
      expect(state.stopped).toEqual({ by: OWNER, at: EARLIER });
    });

    it('completes it when it ends its last runs, and leaves a completed one as it is', () => {
      const noPlanned = experimentStarted({ runs: planRuns([{ id: 'item-a' }, { id: 'item-b' }], 1) });
      const { state } = given(decider, [noPlanned, runStarted(A, 'e1'), runStarted(B, 'e2')], AT_NOW)
        .when(end)
        .thenEmits([
          { type: 'ExperimentStopped', data: { by: OWNER, at: NOW, reason: 'starterCannotRun' } },
          runFinished(A, 'e1', 'stopped', NOW),
          runFinished(B, 'e2', 'stopped', NOW),
          { type: 'ExperimentCompleted', data: { at: NOW } },
        ]);
      expect(state.completedAt).toBe(NOW);
      const one = experimentStarted({ runs: planRuns([{ id: 'item-a' }], 1) });
      given(decider, [one, runStarted(A, 'e1'), runFinished(A, 'e1'), completed], AT_NOW)
        .when(end)
        .thenEmits([]);
    });

    it('refuses a reason it does not know', () => {
      given(decider, [started], AT_NOW)
        .when({ type: 'EndExperiment', data: { reason: 'bored' as 'starterCannotRun' } })
        .thenThrows('rule_violated', EXPERIMENT_MESSAGES.unknownReason);
    });
  });

  describe('PromoteBaseline', () => {
    const promote = { type: 'PromoteBaseline', data: {} } as const;
    const one = experimentStarted({ runs: planRuns([{ id: 'item-a' }], 1) });

    it('makes a completed experiment its flow baseline, as often as asked', () => {
      const { state } = given(decider, [one, runStarted(A, 'e1'), runFinished(A, 'e1'), completed], AT_NOW)
        .when(promote)
        .thenEmits([
          {
            type: 'BaselinePromoted',
            data: { experimentId: EXPERIMENT_ID, flowId: FLOW_ID, flowVersion: 7, by: OWNER, at: NOW },
          },
        ]);
      expect(state.promotedAt).toBe(NOW);
    });

    it('is refused before every run finished', () => {
      given(decider, [one, runStarted(A, 'e1'), stopped], AT_NOW)
        .when(promote)
        .thenThrows('conflict', EXPERIMENT_MESSAGES.notCompleted);
    });
  });

  describe("the experiment's course", () => {
    it('is stopping while a stopped experiment has runs open (in flight, waiting, ready or interrupted)', () => {
      const waiting: ExperimentEvent = {
        type: 'ExperimentRunWaiting',
        data: { runKey: A, executionId: 'e1', at: NOW },
      };
      const history = [
        started,
        runStarted(A, 'e1'),
        waiting,
        runStarted(B, 'e2'),
        runInterrupted(B, 'e2'),
        stopped,
      ];
      const state = given(decider, history, AT_NOW).state;
      expect(openRuns(state).map((run) => run.runKey)).toEqual([A, B]);
      expect(experimentStatus(state)).toBe('stopping');
      const after = given(
        decider,
        [...history, runFinished(A, 'e1', 'stopped'), runFinished(B, 'e2', 'stopped')],
        AT_NOW,
      ).state;
      expect(experimentStatus(after)).toBe('stopped');
      expect(experimentStatus(decider.initialState())).toBe('none');
    });

    it('gives a new experiment what it needs of it as a baseline: its completed runs, and whether it ended', () => {
      const history = [
        started,
        runStarted(A, 'e1'),
        runStarted(B, 'e2'),
        runFinished(A, 'e1'),
        runFinished(B, 'e2', 'failed'),
        stopped,
      ];
      const facts = baselineFactsOf(given(decider, history, AT_NOW).state, STEPS);
      expect(facts).toEqual({
        experimentId: EXPERIMENT_ID,
        flowId: FLOW_ID,
        datasetId: DATASET_ID,
        steps: STEPS,
        config: { models: {} },
        completedRuns: [{ runKey: A, executionId: 'e1' }],
        ended: true,
      });
      expect(baselineFactsOf(given(decider, history.slice(0, -1), AT_NOW).state, STEPS).ended).toBe(false);
    });
  });

  describe('nextRunsToStart', () => {
    it('names the runs to start now: the interrupted first, then the planned in order, up to the concurrency', () => {
      const config = configOf({ concurrency: 2, repetitions: 2 });
      const history = [
        experimentStarted({ config }),
        runStarted(A, 'e1'),
        runStarted(B, 'e2'),
        runInterrupted(B, 'e2'),
      ];
      const state = given(decider, history, AT_NOW).state;
      expect(nextRunsToStart(state)).toEqual([
        { runKey: B, itemId: 'item-b', repetition: 1, reuse: null, resume: 'e2' },
      ]);
      const after = given(decider, [...history, runFinished(A, 'e1')], AT_NOW).state;
      expect(nextRunsToStart(after).map((run) => run.runKey)).toEqual([B, D]);
      expect(nextRunsToStart(decider.initialState())).toEqual([]);
    });

    it('names the baseline execution and the steps to take from it for a run that reuses', () => {
      const runs = planRuns(ITEMS, 1).map((run) =>
        run.itemId === 'item-a' ? { ...run, baselineExecutionId: 'base-a' } : run,
      );
      const state = given(decider, [experimentStarted({ runs, reuseBefore: STEPS[2]!.id })], AT_NOW).state;
      expect(nextRunsToStart(state).slice(0, 2)).toEqual([
        {
          runKey: A,
          itemId: 'item-a',
          repetition: 1,
          reuse: { executionId: 'base-a', fromStepId: STEPS[2]!.id, stepIds: [STEPS[0]!.id, STEPS[1]!.id] },
          resume: null,
        },
        { runKey: B, itemId: 'item-b', repetition: 1, reuse: null, resume: null },
      ]);
    });
  });
});
