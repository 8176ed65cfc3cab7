import { describe, expect, it } from 'vitest';
import { given } from '../testing';
import { MESSAGES } from './decide';
import { decider } from './decider';
import { buildPrompt } from './prompt';
import {
  aStep,
  contextWith,
  countingIds,
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
import {
  type ConversationContext,
  DEFAULT_USER_INPUT,
  type ExecutionCommand,
  type ExecutionEvent,
  type ExecutionState,
} from './types';

const noConversation: ConversationContext = { userNotes: '', rejectedIdeas: '' };
const one = aStep(1, { systemPrompt: 'Research' });
const two = aStep(2, { systemPrompt: 'Build on [[step-1]]', requiresUserInput: true });
const started = executionStarted([one, two], ['c1', 'c2']);

/** The ExecutionStarted of an experiment's run. */
function startedFor(experimentId: string, ...args: Parameters<typeof executionStarted>): ExecutionEvent {
  const event = executionStarted(...args);
  if (event.type !== 'ExecutionStarted') throw new Error('not an ExecutionStarted');
  return { ...event, data: { ...event.data, experimentId } };
}

const runStep = (
  stepId: string,
  fields: Partial<Extract<ExecutionCommand, { type: 'StartStepRun' }>['data']> = {},
) => startStepRun('run-new', stepId, { conversation: noConversation, ...fields });

const complete = (runId: string, output: string) =>
  ({
    type: 'CompleteStepRun',
    data: { runId, output, usage: { inputTokens: 3, outputTokens: 4 }, durationMs: 12 },
  }) satisfies ExecutionCommand;

describe('decide', () => {
  describe('StartExecution', () => {
    const command: ExecutionCommand = {
      type: 'StartExecution',
      data: { executionId: EXECUTION_ID, flowId: FLOW_ID },
    };

    it('starts with the flow steps in order, one cache item id per unit of work', () => {
      const loop = aStep(2, { outputMode: 'loop', maxLoopIterations: 2 });
      const withRowFields = { ...one, flowId: FLOW_ID, createdAt: NOW };
      given(decider, [], executionContext({ steps: [loop, withRowFields] }))
        .when(command)
        .thenEmits([executionStarted([one, loop], ['id-1', 'id-2', 'id-3'])]);
    });

    it('a flow without steps gives an empty execution', () => {
      given(decider, [], executionContext())
        .when(command)
        .thenEmits([executionStarted([], [])]);
    });

    it("marks an experiment's run with its experiment", () => {
      given(decider, [], executionContext({ steps: [one] }))
        .when({
          type: 'StartExecution',
          data: { executionId: EXECUTION_ID, flowId: FLOW_ID, experimentId: 'e-1' },
        })
        .thenEmits([startedFor('e-1', [one], ['id-1'])]);
    });

    it('refuses a stream that already exists', () => {
      given(decider, [started], executionContext())
        .when(command)
        .thenThrows('conflict', MESSAGES.executionExists);
    });
  });

  it.each<ExecutionCommand>([
    runStep(one.id),
    complete('r1', 'x'),
    { type: 'FailStepRun', data: { runId: 'r1', message: 'x', retryable: false } },
    { type: 'ApproveResult', data: { resultId: 'x' } },
    { type: 'UnapproveResult', data: { resultId: 'x' } },
    { type: 'EditResult', data: { resultId: 'x', result: 'y' } },
    { type: 'DeleteResult', data: { resultId: 'x' } },
    { type: 'StopExecution', data: {} },
    { type: 'ResetExecution', data: {} },
  ])('$type on a missing execution is not found', (command) => {
    given(decider, [], executionContext()).when(command).thenThrows('not_found', MESSAGES.executionNotFound);
  });

  // A run brings the execution's steps up to date with the flow first (StartStepRun): what that sync records.
  describe('the sync of the steps before a run', () => {
    const syncOf = (events: ExecutionEvent[]) => events.filter((e) => e.type !== 'StepRunStarted');

    it('records nothing when the steps are unchanged, whatever the key order', () => {
      const reordered = [two, one].map((s) => Object.fromEntries(Object.entries(s).reverse()) as typeof s);
      expect(
        syncOf(
          given(decider, [started], executionContext({ steps: reordered }))
            .when(runStep(one.id))
            .events(),
        ),
      ).toEqual([]);
    });

    it('records the new steps with ids for the new work only', () => {
      const three = aStep(3);
      const renamed = { ...one, name: 'Renamed' };
      expect(
        syncOf(
          given(decider, [started], executionContext({ steps: [three, renamed, two] }))
            .when(runStep(one.id))
            .events(),
        ),
      ).toEqual([
        { type: 'StepsSynced', data: { steps: [renamed, two, three], cacheItemIds: ['id-1'], at: NOW } },
      ]);
    });

    it("never reaches an experiment's run: it keeps the flow version it started from", () => {
      const ofExperiment = startedFor('experiment-1', [one, two], ['c1', 'c2']);
      const three = aStep(3);
      const renamed = { ...one, name: 'Renamed', systemPrompt: 'Research again' };
      const events = given(decider, [ofExperiment], executionContext({ steps: [renamed, two, three] }))
        .when(runStep(one.id))
        .events();
      expect(events.map((event) => event.type)).toEqual(['StepRunStarted']);
      expect(events[0]).toMatchObject({ data: { stepId: one.id } });
      expect(fold([ofExperiment, ...events]).steps.map((step) => step.name)).toEqual([one.name, two.name]);
    });

    it('removing the last unfinished step completes a running execution', () => {
      const events = given(
        decider,
        [started, ...ranStep(one, 'r1', 'c1', 'res1', 'a')],
        executionContext({ steps: [one] }),
      )
        .when(runStep(one.id))
        .events();
      expect(syncOf(events)).toEqual([
        { type: 'StepsSynced', data: { steps: [one], cacheItemIds: [], at: NOW } },
        { type: 'ExecutionCompleted', data: { at: NOW } },
      ]);
    });
  });

  describe('StartStepRun', () => {
    it('brings the steps up to date with the flow first, in the same command', () => {
      const renamed = { ...one, name: 'Renamed' };
      const events = given(decider, [started], executionContext({ steps: [renamed, two] }))
        .when(runStep(renamed.id))
        .events();
      expect(events.map((event) => event.type)).toEqual(['StepsSynced', 'StepRunStarted']);
      expect(events[1]).toMatchObject({ type: 'StepRunStarted', data: { stepId: renamed.id } });
    });

    it('refused on the synced steps, records neither the sync nor the run', () => {
      const required = { ...one, requiresUserInput: true };
      given(decider, [started], executionContext({ steps: [required, two] }))
        .when(runStep(required.id))
        .thenThrows('rule_violated', MESSAGES.inputRequired);
    });

    it('runs the step first pending item with the built prompt', () => {
      const history = [started, ...ranStep(one, 'r1', 'c1', 'res1', 'findings')];
      const state = fold(history);
      const conversation = { userNotes: 'note', rejectedIdeas: '' };
      const expectedPrompt = buildPrompt({
        step: two,
        steps: state.steps,
        results: state.results,
        userInput: 'focus on B2B',
        conversation,
        loopIteration: 0,
      });
      expect(expectedPrompt.finalPrompt).toMatch(/^Build on findings/);
      given(decider, history, executionContext())
        .when(
          runStep(two.id, {
            userInput: 'focus on B2B',
            conversation,
            model: 'gemini-x',
            keySource: 'default',
          }),
        )
        .thenEmits([
          {
            type: 'StepRunStarted',
            data: {
              runId: 'run-new',
              stepId: two.id,
              stepOrder: 2,
              loopIteration: 0,
              cacheItemId: 'c2',
              userInput: 'focus on B2B',
              systemPrompt: two.systemPrompt,
              finalPrompt: expectedPrompt.finalPrompt,
              stepLabels: { 'step-1': 'findings' },
              unresolvedLabels: [],
              // Nobody approved step 1's result: the run says it went on with it unreviewed.
              unreviewedResults: [{ resultId: 'res1', stepId: one.id, stepOrder: 1, label: 'Branch 1' }],
              outputMode: 'single',
              choices: [],
              model: 'gemini-x',
              keySource: 'default',
              instanceId: 1,
              at: NOW,
            },
          },
        ]);
    });

    it('blank input on a step that does not require it becomes the default input', () => {
      const [event] = given(decider, [started], executionContext())
        .when(runStep(one.id, { userInput: '  ' }))
        .events();
      expect(event).toMatchObject({ data: { userInput: DEFAULT_USER_INPUT, cacheItemId: 'c1' } });
    });

    it('a step with no pending work runs a new version', () => {
      const [event] = given(decider, [started, ...ranStep(one, 'r1', 'c1', 'res1', 'a')], executionContext())
        .when(runStep(one.id))
        .events();
      expect(event).toMatchObject({ data: { cacheItemId: null, loopIteration: 0 } });
    });

    describe('loop steps', () => {
      const loop = aStep(1, { outputMode: 'loop', maxLoopIterations: 3 });
      const loopStarted = executionStarted([loop], ['l1', 'l2', 'l3']);

      it('runs the first pending iteration, or the one asked for', () => {
        expect(
          given(decider, [loopStarted], executionContext()).when(runStep(loop.id)).events()[0],
        ).toMatchObject({
          data: { cacheItemId: 'l1', loopIteration: 1 },
        });
        expect(
          given(decider, [loopStarted], executionContext())
            .when(runStep(loop.id, { loopIteration: 3 }))
            .events()[0],
        ).toMatchObject({
          data: { cacheItemId: 'l3', loopIteration: 3 },
        });
      });

      it('a finished iteration runs again as a new version of that iteration', () => {
        const history = [
          loopStarted,
          stepRunStarted(loop, 'r1', { cacheItemId: 'l1', loopIteration: 1 }),
          stepRunSucceeded('r1', [draft('x', 'y', { label: 'Loop 1', loopIteration: 1 })]),
        ];
        expect(
          given(decider, history, executionContext())
            .when(runStep(loop.id, { loopIteration: 1 }))
            .events()[0],
        ).toMatchObject({
          data: { cacheItemId: null, loopIteration: 1 },
        });
      });

      it('a loop with every iteration done runs a new version of its last iteration', () => {
        const history = [
          loopStarted,
          ...[1, 2, 3].flatMap((n) => [
            stepRunStarted(loop, `r${n}`, { cacheItemId: `l${n}`, loopIteration: n }),
            stepRunSucceeded(`r${n}`, [draft(`x${n}`, 'y', { label: `Loop ${n}`, loopIteration: n })]),
          ]),
        ];
        expect(given(decider, history, executionContext()).when(runStep(loop.id)).events()[0]).toMatchObject({
          data: { cacheItemId: null, loopIteration: 3 },
        });
      });

      it('refuses an iteration the loop does not have', () => {
        given(decider, [loopStarted], executionContext())
          .when(runStep(loop.id, { loopIteration: 4 }))
          .thenThrows('not_found');
      });
    });

    it('refuses an unknown step', () => {
      given(decider, [started], executionContext())
        .when(runStep('nope'))
        .thenThrows('not_found', MESSAGES.stepNotFound);
    });

    it('refuses a stopped execution until it is reset', () => {
      const stopped: ExecutionEvent[] = [started, { type: 'ExecutionStopped', data: { at: NOW } }];
      given(decider, stopped, executionContext())
        .when(runStep(one.id))
        .thenThrows('conflict', MESSAGES.stopped);
      const reset: ExecutionEvent = { type: 'ExecutionReset', data: { cacheItemIds: ['n1', 'n2'], at: NOW } };
      expect(
        given(decider, [...stopped, reset], executionContext())
          .when(runStep(one.id))
          .events(),
      ).toHaveLength(1);
    });

    it('refuses blank input for a step that requires input', () => {
      given(decider, [started], executionContext())
        .when(runStep(two.id, { userInput: ' \n\t' }))
        .thenThrows('rule_violated', MESSAGES.inputRequired);
    });

    it('refuses a second run of a step while one is in progress', () => {
      given(decider, [started, stepRunStarted(one, 'r1', { cacheItemId: 'c1' })], executionContext())
        .when(runStep(one.id))
        .thenThrows('conflict', MESSAGES.runInProgress);
    });

    it('a completed execution still accepts runs', () => {
      const done = [
        started,
        ...ranStep(one, 'r1', 'c1', 'res1', 'a'),
        ...ranStep(two, 'r2', 'c2', 'res2', 'b'),
        { type: 'ExecutionCompleted', data: { at: NOW } } as const,
      ];
      expect(given(decider, done, executionContext()).when(runStep(one.id)).events()).toHaveLength(1);
    });
  });

  describe('CompleteStepRun', () => {
    const running = [started, stepRunStarted(one, 'r1', { cacheItemId: 'c1' })];

    it('records the answer as a result', () => {
      given(decider, running, executionContext())
        .when(complete('r1', 'The answer'))
        .thenEmits([
          {
            type: 'StepRunSucceeded',
            data: {
              runId: 'r1',
              results: [draft('id-1', 'The answer')],
              usage: { inputTokens: 3, outputTokens: 4 },
              durationMs: 12,
              at: NOW,
            },
          },
        ]);
    });

    it('keeps the time to the first token the runner measured, and the provider its run was started with', () => {
      const [succeeded] = given(decider, running, executionContext())
        .when({ type: 'CompleteStepRun', data: { ...complete('r1', 'Hi').data, firstTokenMs: 7 } })
        .events();
      expect(succeeded).toMatchObject({ type: 'StepRunSucceeded', data: { firstTokenMs: 7 } });
      const [failed] = given(decider, running, executionContext())
        .when({
          type: 'FailStepRun',
          data: { runId: 'r1', message: 'Cut', retryable: false, firstTokenMs: null },
        })
        .events();
      expect(failed).toMatchObject({ type: 'StepRunFailed', data: { firstTokenMs: null } });
      const [start] = given(decider, [started], executionContext())
        .when(runStep(one.id, { model: 'gpt-4.1-mini', provider: 'openai' }))
        .events();
      expect(start).toMatchObject({ data: { model: 'gpt-4.1-mini', provider: 'openai' } });
    });

    it('keeps an answer holding text PostgreSQL cannot store, made storable', () => {
      const [succeeded] = given(decider, running, executionContext())
        .when(complete('r1', 'a\u0000b \ud800 c'))
        .events();
      expect(succeeded).toMatchObject({
        type: 'StepRunSucceeded',
        data: { results: [{ content: 'ab \ufffd c' }] },
      });
      const [failed] = given(decider, running, executionContext())
        .when({ type: 'FailStepRun', data: { runId: 'r1', message: 'bad\u0000', retryable: false } })
        .events();
      expect(failed).toMatchObject({ type: 'StepRunFailed', data: { message: 'bad' } });
    });

    it('the last pending work completes the execution', () => {
      const history = [
        ...running.slice(0, 1),
        ...ranStep(one, 'r1', 'c1', 'res1', 'a'),
        stepRunStarted(two, 'r2', { cacheItemId: 'c2' }),
      ];
      const events = given(decider, history, executionContext()).when(complete('r2', 'done')).events();
      expect(events.map((e) => e.type)).toEqual(['StepRunSucceeded', 'ExecutionCompleted']);
    });

    it('a new version on a completed execution does not complete it again', () => {
      const history = [
        started,
        ...ranStep(one, 'r1', 'c1', 'res1', 'a'),
        ...ranStep(two, 'r2', 'c2', 'res2', 'b'),
        { type: 'ExecutionCompleted', data: { at: NOW } } as const,
        stepRunStarted(one, 'r3', { cacheItemId: null }),
      ];
      expect(
        given(decider, history, executionContext())
          .when(complete('r3', 'v2'))
          .events()
          .map((e) => e.type),
      ).toEqual(['StepRunSucceeded']);
    });

    it('a loop run is labelled with its iteration', () => {
      const loop = aStep(1, { outputMode: 'loop', maxLoopIterations: 2 });
      const history = [
        executionStarted([loop], ['l1', 'l2']),
        stepRunStarted(loop, 'r1', { cacheItemId: 'l2', loopIteration: 2 }),
      ];
      const [event] = given(decider, history, executionContext()).when(complete('r1', 'turn')).events();
      expect(event).toMatchObject({
        data: { results: [{ label: 'Loop 2', loopIteration: 2, content: 'turn' }] },
      });
    });

    it('a multiple step gives one result per branch', () => {
      const multi = aStep(1, { outputMode: 'multiple' });
      const history = [executionStarted([multi], ['m1']), stepRunStarted(multi, 'r1', { cacheItemId: 'm1' })];
      const output = JSON.stringify([
        { branchName: 'A', content: 'a' },
        { branchName: '', content: 'b' },
      ]);
      const [event] = given(decider, history, executionContext()).when(complete('r1', output)).events();
      expect(event).toMatchObject({
        data: {
          results: [
            { resultId: 'id-1', label: 'A' },
            { resultId: 'id-2', label: 'Branch 2' },
          ],
        },
      });
    });

    it('a choice step gives the chosen path, approved once applied', () => {
      const choice = aStep(1, { outputMode: 'multiple_choice', choices: ['Left', 'Right'] });
      const history = [
        executionStarted([choice], ['k1']),
        stepRunStarted(choice, 'r1', { cacheItemId: 'k1' }),
      ];
      const events = given(decider, history, executionContext())
        .when(complete('r1', '{"choice":"Right"}'))
        .events();
      expect(events).toEqual([
        expect.objectContaining({
          type: 'StepRunSucceeded',
          data: expect.objectContaining({
            results: [
              draft('id-1', 'Right', {
                label: 'path: Right',
                branchName: 'Right',
                branchPath: 'Right',
                choiceIndex: 1,
              }),
            ],
          }),
        }),
        { type: 'ExecutionCompleted', data: { at: NOW } },
      ]);
      const state = fold(events, fold(history));
      expect(state.results[0]!.approved).toBe(true);
    });

    it('refuses an answer that breaks the step output contract', () => {
      const choice = aStep(1, { outputMode: 'multiple_choice', choices: ['Left', 'Right'] });
      const history = [
        executionStarted([choice], ['k1']),
        stepRunStarted(choice, 'r1', { cacheItemId: 'k1' }),
      ];
      given(decider, history, executionContext())
        .when(complete('r1', 'I pick Right'))
        .thenThrows('model_failed', /choices/);
    });

    it('refuses an unknown run and a run that already ended', () => {
      given(decider, running, executionContext())
        .when(complete('nope', 'x'))
        .thenThrows('not_found', MESSAGES.runNotFound);
      given(decider, [started, ...ranStep(one, 'r1', 'c1', 'res1', 'a')], executionContext())
        .when(complete('r1', 'again'))
        .thenThrows('conflict', MESSAGES.runNotRunning);
    });
  });

  describe('FailStepRun', () => {
    const fail = (runId: string): ExecutionCommand => ({
      type: 'FailStepRun',
      data: { runId, message: 'model timeout', retryable: true },
    });

    it('records the failure', () => {
      given(decider, [started, stepRunStarted(one, 'r1', { cacheItemId: 'c1' })], executionContext())
        .when(fail('r1'))
        .thenEmits([
          {
            type: 'StepRunFailed',
            data: { runId: 'r1', message: 'model timeout', retryable: true, at: NOW },
          },
        ]);
    });

    it('refuses an unknown run and a run that already ended', () => {
      given(decider, [started], executionContext()).when(fail('r1')).thenThrows('not_found');
      given(decider, [started, ...ranStep(one, 'r1', 'c1', 'res1', 'a')], executionContext())
        .when(fail('r1'))
        .thenThrows('conflict');
    });
  });

  describe('results', () => {
    const withResult = [started, ...ranStep(one, 'r1', 'c1', 'res1', 'Answer')];
    const approved: ExecutionEvent[] = [
      ...withResult,
      { type: 'ResultApproved', data: { resultId: 'res1', at: NOW } },
    ];
    const choice = aStep(1, { outputMode: 'multiple_choice', choices: ['A'] });
    const withChoice = [
      executionStarted([choice], ['k1']),
      stepRunStarted(choice, 'r1', { cacheItemId: 'k1' }),
      stepRunSucceeded('r1', [draft('pick', 'A', { label: 'path: A', choiceIndex: 0, branchPath: 'A' })]),
    ];

    it('ApproveResult approves once', () => {
      given(decider, withResult, executionContext())
        .when({ type: 'ApproveResult', data: { resultId: 'res1' } })
        .thenEmits([{ type: 'ResultApproved', data: { resultId: 'res1', at: NOW } }]);
      given(decider, approved, executionContext())
        .when({ type: 'ApproveResult', data: { resultId: 'res1' } })
        .thenEmits([]);
      given(decider, withResult, executionContext())
        .when({ type: 'ApproveResult', data: { resultId: 'nope' } })
        .thenThrows('not_found');
    });

    it('UnapproveResult unapproves once, never a chosen path', () => {
      given(decider, approved, executionContext())
        .when({ type: 'UnapproveResult', data: { resultId: 'res1' } })
        .thenEmits([{ type: 'ResultUnapproved', data: { resultId: 'res1', at: NOW } }]);
      given(decider, withResult, executionContext())
        .when({ type: 'UnapproveResult', data: { resultId: 'res1' } })
        .thenEmits([]);
      given(decider, withChoice, executionContext())
        .when({ type: 'UnapproveResult', data: { resultId: 'pick' } })
        .thenThrows('rule_violated', MESSAGES.choiceStaysApproved);
      given(decider, withResult, executionContext())
        .when({ type: 'UnapproveResult', data: { resultId: 'nope' } })
        .thenThrows('not_found');
    });

    it('EditResult records before and after', () => {
      given(decider, withResult, executionContext())
        .when({ type: 'EditResult', data: { resultId: 'res1', result: 'Better', label: 'Mine' } })
        .thenEmits([
          {
            type: 'ResultEdited',
            data: {
              resultId: 'res1',
              before: 'Answer',
              after: 'Better',
              label: 'Mine',
              by: 'user-1',
              at: NOW,
            },
          },
        ]);
    });

    it('EditResult keeps what it is not given; a blank label becomes step_{order}', () => {
      given(decider, withResult, executionContext())
        .when({ type: 'EditResult', data: { resultId: 'res1', result: 'Better' } })
        .thenEmits([
          {
            type: 'ResultEdited',
            data: {
              resultId: 'res1',
              before: 'Answer',
              after: 'Better',
              label: 'Branch 1',
              by: 'user-1',
              at: NOW,
            },
          },
        ]);
      given(decider, withResult, executionContext())
        .when({ type: 'EditResult', data: { resultId: 'res1', label: '  ' } })
        .thenEmits([
          {
            type: 'ResultEdited',
            data: {
              resultId: 'res1',
              before: 'Answer',
              after: 'Answer',
              label: 'step_1',
              by: 'user-1',
              at: NOW,
            },
          },
        ]);
    });

    it('EditResult refuses an empty result: whitespace alone is no text', () => {
      for (const result of ['', '   \n\t']) {
        given(decider, withResult, executionContext())
          .when({ type: 'EditResult', data: { resultId: 'res1', result } })
          .thenThrows('rule_violated', MESSAGES.emptyResult);
      }
    });

    it('EditResult with nothing to change is refused; with the same values it records nothing', () => {
      given(decider, withResult, executionContext())
        .when({ type: 'EditResult', data: { resultId: 'res1' } })
        .thenThrows('rule_violated', MESSAGES.nothingToEdit);
      given(decider, withResult, executionContext())
        .when({ type: 'EditResult', data: { resultId: 'res1', result: 'Answer', label: 'Branch 1' } })
        .thenEmits([]);
      given(decider, withResult, executionContext())
        .when({ type: 'EditResult', data: { resultId: 'nope', result: 'x' } })
        .thenThrows('not_found');
    });

    it('DeleteResult records the deleted text', () => {
      given(decider, withResult, executionContext())
        .when({ type: 'DeleteResult', data: { resultId: 'res1' } })
        .thenEmits([{ type: 'ResultDeleted', data: { resultId: 'res1', content: 'Answer', at: NOW } }]);
      given(decider, withResult, executionContext())
        .when({ type: 'DeleteResult', data: { resultId: 'nope' } })
        .thenThrows('not_found');
    });
  });

  describe('StopExecution and ResetExecution', () => {
    it('stops once', () => {
      given(decider, [started], executionContext())
        .when({ type: 'StopExecution', data: {} })
        .thenEmits([{ type: 'ExecutionStopped', data: { at: NOW } }]);
      given(decider, [started, { type: 'ExecutionStopped', data: { at: NOW } }], executionContext())
        .when({ type: 'StopExecution', data: {} })
        .thenEmits([]);
    });

    it('reset brings a fresh id for every unit of work and keeps the results', () => {
      const history = [
        started,
        ...ranStep(one, 'r1', 'c1', 'res1', 'kept'),
        { type: 'ExecutionStopped', data: { at: NOW } } as const,
      ];
      const { state } = given(decider, history, executionContext())
        .when({ type: 'ResetExecution', data: {} })
        .thenEmits([{ type: 'ExecutionReset', data: { cacheItemIds: ['id-1', 'id-2'], at: NOW } }]);
      expect(state).toMatchObject({ status: 'running', currentStep: 1 });
      expect(state.executionCache.map((c) => [c.id, c.status])).toEqual([
        ['id-1', 'pending'],
        ['id-2', 'pending'],
      ]);
      expect(state.results.map((r) => r.result)).toEqual(['kept']);
    });
  });

  describe('replay', () => {
    /** Decides each command on the state so far, as the handler does, and keeps every event. */
    function play(commands: ExecutionCommand[], steps = [one, two]) {
      const newId = countingIds();
      let state: ExecutionState = decider.initialState();
      const events: ExecutionEvent[] = [];
      for (const command of commands) {
        const emitted = decider.decide(command, state, contextWith({ newId, steps }));
        state = fold(emitted, state);
        events.push(...emitted);
      }
      return { state, events };
    }

    const session: ExecutionCommand[] = [
      { type: 'StartExecution', data: { executionId: EXECUTION_ID, flowId: FLOW_ID } },
      runStep(one.id, { runId: 'a' }),
      complete('a', 'first'),
      { type: 'ApproveResult', data: { resultId: 'id-3' } },
      runStep(one.id, { runId: 'b' }),
      complete('b', 'second version'),
      runStep(two.id, { runId: 'c', userInput: 'go' }),
      { type: 'FailStepRun', data: { runId: 'c', message: 'timeout', retryable: true } },
      runStep(two.id, { runId: 'd', userInput: 'go' }),
      complete('d', 'built'),
      { type: 'EditResult', data: { resultId: 'id-5', label: 'Final' } },
      { type: 'StopExecution', data: {} },
      { type: 'ResetExecution', data: {} },
      runStep(one.id, { runId: 'e' }),
    ];

    it('folding the events of a session gives the state the session ended in', () => {
      const { state, events } = play(session);
      expect(fold(events)).toEqual(state);
      expect(events.map((e) => e.type)).toEqual([
        'ExecutionStarted',
        'StepRunStarted',
        'StepRunSucceeded',
        'ResultApproved',
        'StepRunStarted',
        'StepRunSucceeded',
        'StepRunStarted',
        'StepRunFailed',
        'StepRunStarted',
        'StepRunSucceeded',
        'ExecutionCompleted',
        'ResultEdited',
        'ExecutionStopped',
        'ExecutionReset',
        'StepRunStarted',
      ]);
      expect(state).toMatchObject({ status: 'running', currentStep: 1, completedAt: null });
      expect(state.results.map((r) => [r.stepOrder, r.label, r.result, r.approved])).toEqual([
        [1, 'Branch 1', 'first', true],
        [1, 'Branch 1', 'second version', false],
        [2, 'Final', 'built', false],
      ]);
      expect(state.runs.map((r) => [r.runId, r.status, r.cacheItemId])).toEqual([
        ['a', 'succeeded', 'id-1'],
        ['b', 'succeeded', null],
        ['c', 'failed', 'id-2'],
        ['d', 'succeeded', 'id-2'],
        ['e', 'running', 'id-6'],
      ]);
    });

    it('the approved version, not the newest, feeds the next step', () => {
      const { events } = play(session);
      const secondStepRun = events.filter((e) => e.type === 'StepRunStarted')[2]!;
      expect(secondStepRun.data).toMatchObject({ stepLabels: { 'step-1': 'first' }, userInput: 'go' });
    });

    it('every prefix of the session replays to the state reached at that point', () => {
      for (let n = 1; n <= session.length; n++) {
        const { state, events } = play(session.slice(0, n));
        expect(fold(events)).toEqual(state);
      }
    });
  });
});
