import { describe, expect, it } from 'vitest';
import { given } from '../testing';
import { MESSAGES } from './decide';
import { decider } from './decider';
import {
  aStep,
  contextWith,
  draft,
  EXECUTION_ID,
  executionContext,
  executionStarted,
  FLOW_ID,
  fold,
  NOW,
  ranStep,
  startStepRun,
  stepRunStarted,
  stepRunSucceeded,
} from './testing';
import type { ExecutionCommand, ExecutionEvent, ExecutionState } from './types';

const SOURCE_STARTED = '2025-01-01T10:00:00.000Z';
const RERUN_ID = 'execution-2';
const one = aStep(1, { name: 'Research' });
const two = aStep(2, { name: 'Outline', outputMode: 'multiple' });
const three = aStep(3, { name: 'Draft', systemPrompt: 'Write from [[step-2]]' });
const steps = [one, two, three];

const approved = (resultId: string): ExecutionEvent => ({
  type: 'ResultApproved',
  data: { resultId, at: SOURCE_STARTED },
});

/** The earlier execution: step 1 run twice (the second approved), step 2 with two branches, one approved. */
const sourceHistory: ExecutionEvent[] = [
  executionStarted(steps, ['c1', 'c2', 'c3'], SOURCE_STARTED),
  ...ranStep(one, 'r1', 'c1', 'res1', 'first findings', SOURCE_STARTED),
  ...ranStep(one, 'r1b', null, 'res1b', 'better findings', SOURCE_STARTED),
  approved('res1b'),
  stepRunStarted(two, 'r2', { cacheItemId: 'c2' }, SOURCE_STARTED),
  stepRunSucceeded(
    'r2',
    [
      draft('res2a', 'outline A', { label: 'Short', branchName: 'Short' }),
      draft('res2b', 'outline B', { label: 'Long', branchName: 'Long' }),
    ],
    SOURCE_STARTED,
  ),
  approved('res2b'),
  {
    type: 'ResultEdited',
    data: {
      resultId: 'res2b',
      before: 'outline B',
      after: 'outline B, edited',
      label: 'Long',
      at: SOURCE_STARTED,
    },
  },
];
const source = fold(sourceHistory);

const rerunFrom = (fromStepId: string, from: ExecutionState = source): ExecutionCommand => ({
  type: 'StartExecutionFrom',
  data: { executionId: RERUN_ID, flowId: FLOW_ID, fromStepId, source: from },
});

const reused = (fields: {
  resultId: string;
  sourceResultId: string;
  sourceRunId: string;
  step: typeof one;
  label: string;
  branchName?: string | null;
  content: string;
}) => ({
  resultId: fields.resultId,
  sourceResultId: fields.sourceResultId,
  sourceRunId: fields.sourceRunId,
  stepId: fields.step.id,
  stepOrder: fields.step.order,
  label: fields.label,
  branchName: fields.branchName ?? null,
  branchPath: null,
  choiceIndex: null,
  loopIteration: null,
  content: fields.content,
});

describe('decide StartExecutionFrom', () => {
  it('starts a new execution and reuses only the approved results of the steps before the chosen one', () => {
    given(decider, [], executionContext({ steps }))
      .when(rerunFrom(three.id))
      .thenEmits([
        {
          type: 'ExecutionStarted',
          data: {
            executionId: RERUN_ID,
            userId: 'user-1',
            flowId: FLOW_ID,
            steps,
            cacheItemIds: ['id-1', 'id-2', 'id-3'],
            at: NOW,
          },
        },
        {
          type: 'ResultsReused',
          data: {
            sourceExecutionId: EXECUTION_ID,
            sourceStartedAt: SOURCE_STARTED,
            fromStepId: three.id,
            stepIds: [one.id, two.id],
            results: [
              reused({
                resultId: 'id-4',
                sourceResultId: 'res1b',
                sourceRunId: 'r1b',
                step: one,
                label: 'Branch 1',
                content: 'better findings',
              }),
              reused({
                resultId: 'id-5',
                sourceResultId: 'res2b',
                sourceRunId: 'r2',
                step: two,
                label: 'Long',
                branchName: 'Long',
                content: 'outline B, edited',
              }),
            ],
            at: NOW,
          },
        },
      ]);
  });

  it('the new execution waits at the chosen step with the reused results approved and their origin', () => {
    const state = fold(given(decider, [], executionContext({ steps })).when(rerunFrom(three.id)).events());
    expect(state).toMatchObject({ id: RERUN_ID, status: 'running', currentStep: 3 });
    expect(state.executionQueue.map((item) => item.isCompleted)).toEqual([true, true, false]);
    expect(state.executionCache.map((item) => item.status)).toEqual(['completed', 'completed', 'pending']);
    expect(state.runs).toEqual([]);
    expect(state.results).toEqual([
      {
        id: 'id-4',
        executionId: RERUN_ID,
        stepId: one.id,
        stepOrder: 1,
        runId: 'r1b',
        label: 'Branch 1',
        branchName: null,
        branchPath: null,
        choiceIndex: null,
        loopIteration: null,
        result: 'better findings',
        approved: true,
        createdAt: NOW,
        origin: { executionId: EXECUTION_ID, executionStartedAt: SOURCE_STARTED, resultId: 'res1b' },
      },
      expect.objectContaining({
        id: 'id-5',
        result: 'outline B, edited',
        approved: true,
        origin: { executionId: EXECUTION_ID, executionStartedAt: SOURCE_STARTED, resultId: 'res2b' },
      }),
    ]);
  });

  it('the chosen step then runs on the reused text', () => {
    const rerun = fold(decider.decide(rerunFrom(three.id), fold([]), contextWith({ steps })));
    const [event] = decider.decide(startStepRun('r3', three.id), rerun, contextWith({ steps }));
    expect(event).toMatchObject({ type: 'StepRunStarted', data: { cacheItemId: 'id-3', stepOrder: 3 } });
    expect(event?.type === 'StepRunStarted' && event.data.finalPrompt).toContain('outline B, edited');
    expect(event?.type === 'StepRunStarted' && event.data.finalPrompt).not.toContain('outline A');
  });

  it('from the first step nothing is reused, and the re-run is still recorded', () => {
    const events = given(decider, [], executionContext({ steps })).when(rerunFrom(one.id)).events();
    expect(events[1]).toEqual({
      type: 'ResultsReused',
      data: {
        sourceExecutionId: EXECUTION_ID,
        sourceStartedAt: SOURCE_STARTED,
        fromStepId: one.id,
        stepIds: [],
        results: [],
        at: NOW,
      },
    });
    expect(fold(events)).toMatchObject({ currentStep: 1, results: [] });
  });

  it('refuses when a step before the chosen one has no approved result, naming the step', () => {
    const unapproved = fold([
      ...sourceHistory,
      { type: 'ResultUnapproved', data: { resultId: 'res2b', at: NOW } },
    ]);
    given(decider, [], executionContext({ steps }))
      .when(rerunFrom(three.id, unapproved))
      .thenThrows('rule_violated', MESSAGES.nothingApprovedToReuse(2, 'Outline'));
    expect(MESSAGES.nothingApprovedToReuse(2, 'Outline')).toMatch(
      /^Step 2 \(Outline\) chưa có kết quả nào được approve/,
    );
  });

  it('a step added to the flow since the source ran has nothing to reuse', () => {
    const added = aStep(2, { id: 'step-new-id', name: 'New' });
    const reordered = [one, added, { ...two, order: 3 }, { ...three, order: 4 }];
    given(decider, [], executionContext({ steps: reordered }))
      .when(rerunFrom(three.id))
      .thenThrows('rule_violated', MESSAGES.nothingApprovedToReuse(2, 'New'));
  });

  it('refuses a step that is not in the flow', () => {
    given(decider, [], executionContext({ steps }))
      .when(rerunFrom('step-elsewhere'))
      .thenThrows('not_found', MESSAGES.stepNotInFlow);
  });

  it('refuses a source execution of another flow', () => {
    given(decider, [], executionContext({ steps }))
      .when(rerunFrom(three.id, { ...source, flowId: 'flow-2' }))
      .thenThrows('rule_violated', MESSAGES.sourceOfAnotherFlow);
  });

  it("refuses to carry an experiment's approvals into a person's run; another experiment may reuse them", () => {
    const ofExperiment = { ...source, experimentId: 'experiment-1' };
    given(decider, [], executionContext({ steps }))
      .when(rerunFrom(three.id, ofExperiment))
      .thenThrows('rule_violated', MESSAGES.sourceOfExperiment);
    const reused = decider.decide(
      {
        type: 'StartExecutionFrom',
        data: {
          executionId: RERUN_ID,
          flowId: FLOW_ID,
          fromStepId: three.id,
          source: ofExperiment,
          experimentId: 'e2',
        },
      },
      decider.initialState(),
      executionContext({ steps })(decider.initialState()),
    );
    expect(reused.map((event) => event.type)).toEqual(['ExecutionStarted', 'ResultsReused']);
  });

  it('refuses a stream that already exists', () => {
    given(decider, [executionStarted(steps, ['c1', 'c2', 'c3'])], executionContext({ steps }))
      .when(rerunFrom(three.id))
      .thenThrows('conflict', MESSAGES.executionExists);
  });
});

describe('evolve ResultsReused', () => {
  it('completes all the work of the reused steps, every loop iteration included', () => {
    const loop = aStep(2, { outputMode: 'loop', maxLoopIterations: 2 });
    const state = fold([
      { ...executionStarted([one, loop, three], ['c1', 'l1', 'l2', 'c3']) },
      {
        type: 'ResultsReused',
        data: {
          sourceExecutionId: 'execution-0',
          sourceStartedAt: SOURCE_STARTED,
          fromStepId: three.id,
          stepIds: [one.id, loop.id],
          results: [],
          at: NOW,
        },
      },
    ]);
    expect(state.executionCache.map((item) => [item.id, item.status])).toEqual([
      ['c1', 'completed'],
      ['l1', 'completed'],
      ['l2', 'completed'],
      ['c3', 'pending'],
    ]);
    expect(state.currentStep).toBe(3);
  });

  it('a reused result is a result like any other: it can be unapproved, edited and deleted', () => {
    const events = decider.decide(rerunFrom(three.id), fold([]), contextWith({ steps }));
    const state = [
      { type: 'ResultUnapproved', data: { resultId: 'id-5', at: NOW } },
      {
        type: 'ResultEdited',
        data: { resultId: 'id-4', before: 'better findings', after: 'mine', label: 'Mine', at: NOW },
      },
      { type: 'ResultDeleted', data: { resultId: 'id-5', content: 'outline B, edited', at: NOW } },
    ].reduce((s, e) => decider.evolve(s, e as ExecutionEvent), fold(events));
    expect(state.results).toEqual([
      expect.objectContaining({
        id: 'id-4',
        result: 'mine',
        label: 'Mine',
        approved: true,
        origin: expect.any(Object),
      }),
    ]);
  });
});
