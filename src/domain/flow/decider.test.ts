import { describe, expect, it } from 'vitest';
import { aFlowStep } from '../execution/testing';
import { MAX_FLOW_STEPS, MULTIPLE_CHOICE_NEEDS_CHOICE } from '../flow';
import { fold, given } from '../testing';
import type { FlowContext } from './commands';
import { decider, FLOW_NOT_FOUND, INPUT_SOURCES_EARLIER, STEP_NOT_FOUND, TOO_MANY_STEPS } from './decider';
import type { FlowEvent, FlowState, VersionedStep } from './events';

const NOW = '2026-11-25T10:00:00.000Z';
const EARLIER = '2026-11-24T09:00:00.000Z';
const DETAILS = { name: 'Blog', description: 'Ideas, then a post', status: 'draft', isTemplate: false };

/** A flow's step as its stream records it: aFlowStep's fields, without its flow. */
function step(id: string, order: number, fields: Partial<VersionedStep> = {}): VersionedStep {
  const { flowId: _flow, ...versioned } = aFlowStep(order, { id, createdAt: EARLIER, ...fields });
  return versioned;
}

const created = (steps: VersionedStep[] = [step('s1', 1), step('s2', 2)]): FlowEvent => ({
  type: 'FlowCreated',
  data: { flowId: 'f1', userId: 'u1', origin: 'manual', details: DETAILS, steps, at: EARLIER },
});

/** Decided at NOW by u1, on the version the history reaches. */
const atVersion = (_state: FlowState, version: number): FlowContext => ({ now: NOW, userId: 'u1', version });

describe('the flow decider', () => {
  it('creates a flow with its steps, in order, their configuration normalised', () => {
    const choices = step('s2', 2, { outputMode: 'single', choices: ['left over'] });
    given(decider, [], atVersion)
      .when({
        type: 'CreateFlow',
        data: { flowId: 'f1', origin: 'template', details: DETAILS, steps: [choices, step('s1', 1)] },
      })
      .thenEmits([
        {
          type: 'FlowCreated',
          data: {
            flowId: 'f1',
            userId: 'u1',
            origin: 'template',
            details: DETAILS,
            steps: [step('s1', 1), { ...choices, choices: [] }],
            at: NOW,
          },
        },
      ]);
  });

  it('refuses a second creation and any change of a flow that is not there', () => {
    given(decider, [created()], atVersion)
      .when({ type: 'CreateFlow', data: { flowId: 'f1', origin: 'manual', details: DETAILS, steps: [] } })
      .thenThrows('conflict', 'Flow already exists');
    given(decider, [], atVersion)
      .when({ type: 'ReviseFlow', data: { name: 'X' } })
      .thenThrows('not_found', FLOW_NOT_FOUND);
    given(decider, [created(), { type: 'FlowDeleted', data: { at: NOW } }], atVersion)
      .when({ type: 'ReviseFlow', data: { status: 'active' } })
      .thenThrows('not_found', FLOW_NOT_FOUND);
  });

  it('records a rename with the name before and after, and nothing when nothing changes', () => {
    given(decider, [created()], atVersion)
      .when({ type: 'ReviseFlow', data: { name: 'Blog 2', description: DETAILS.description } })
      .thenEmits([
        { type: 'FlowDescribed', data: { before: { name: 'Blog' }, after: { name: 'Blog 2' }, at: NOW } },
      ]);
    given(decider, [created()], atVersion)
      .when({ type: 'ReviseFlow', data: { ...DETAILS } })
      .thenEmits([]);
    given(decider, [created()], atVersion)
      .when({ type: 'ReviseFlow', data: { status: 'active' } })
      .thenEmits([
        {
          type: 'FlowDescribed',
          data: { before: { status: 'draft' }, after: { status: 'active' }, at: NOW },
        },
      ]);
  });

  it('records a form saving name and status at once as one event, so one version with the next number', () => {
    given(decider, [created()], atVersion)
      .when({
        type: 'ReviseFlow',
        data: { name: 'Blog 2', description: DETAILS.description, status: 'active' },
      })
      .thenEmits([
        {
          type: 'FlowDescribed',
          data: {
            before: { name: 'Blog', status: 'draft' },
            after: { name: 'Blog 2', status: 'active' },
            at: NOW,
          },
        },
      ]);
  });

  it(`refuses a step past the ${MAX_FLOW_STEPS} a flow may have`, () => {
    const full = Array.from({ length: MAX_FLOW_STEPS }, (_, i) => step(`s${i + 1}`, i + 1));
    const { createdAt: _unused, ...another } = step('extra', MAX_FLOW_STEPS + 1);
    given(decider, [created(full)], atVersion)
      .when({ type: 'AddStep', data: { step: another } })
      .thenThrows('rule_violated', TOO_MANY_STEPS);
    given(decider, [created(full.slice(1))], atVersion)
      .when({ type: 'AddStep', data: { step: another } })
      .thenEmits([{ type: 'StepAdded', data: { step: { ...another, createdAt: NOW }, at: NOW } }]);
  });

  it('adds a step whose inputs are earlier steps, and refuses one taking a later step', () => {
    const { createdAt: _unused, ...third } = step('s3', 3, { inputSources: ['s1', 's2'] });
    given(decider, [created()], atVersion)
      .when({ type: 'AddStep', data: { step: third } })
      .thenEmits([{ type: 'StepAdded', data: { step: { ...third, createdAt: NOW }, at: NOW } }]);
    given(decider, [created()], atVersion)
      .when({ type: 'AddStep', data: { step: { ...third, order: 1 } } })
      .thenThrows('rule_violated', INPUT_SOURCES_EARLIER);
  });

  it('records a step edit with only the fields that changed, before and after', () => {
    given(decider, [created()], atVersion)
      .when({
        type: 'EditStep',
        data: { stepId: 's2', changes: { systemPrompt: 'New prompt', name: 'Step 2' } },
      })
      .thenEmits([
        {
          type: 'StepEdited',
          data: {
            stepId: 's2',
            before: { systemPrompt: 'Prompt 2' },
            after: { systemPrompt: 'New prompt' },
            at: NOW,
          },
        },
      ]);
    given(decider, [created()], atVersion)
      .when({ type: 'EditStep', data: { stepId: 's2', changes: { name: 'Step 2' } } })
      .thenEmits([]);
    given(decider, [created()], atVersion)
      .when({ type: 'EditStep', data: { stepId: 'nope', changes: {} } })
      .thenThrows('not_found', STEP_NOT_FOUND);
  });

  it('a loop step loops on itself: the normalisation of every saved step applies to an edit', () => {
    given(decider, [created()], atVersion)
      .when({
        type: 'EditStep',
        data: { stepId: 's1', changes: { outputMode: 'loop', maxLoopIterations: 3 } },
      })
      .thenEmits([
        {
          type: 'StepEdited',
          data: {
            stepId: 's1',
            before: { outputMode: 'single', loopTargetStepId: null, maxLoopIterations: 1 },
            after: { outputMode: 'loop', loopTargetStepId: 's1', maxLoopIterations: 3 },
            at: NOW,
          },
        },
      ]);
  });

  it('removes a step, and the later steps stop taking it as an input', () => {
    const history = [created([step('s1', 1), step('s2', 2, { inputSources: ['s1'] })])];
    given(decider, history, atVersion)
      .when({ type: 'RemoveStep', data: { stepId: 's1' } })
      .thenEmits([{ type: 'StepRemoved', data: { step: step('s1', 1), at: NOW } }]);
    const after = fold(decider, [
      ...history,
      { type: 'StepRemoved', data: { step: step('s1', 1), at: NOW } },
    ]);
    expect(after.steps).toEqual([step('s2', 2, { inputSources: [] })]);
  });

  it('reorders steps, recording only those that moved', () => {
    given(decider, [created()], atVersion)
      .when({
        type: 'ReorderSteps',
        data: {
          orders: [
            { stepId: 's1', order: 2 },
            { stepId: 's2', order: 1 },
          ],
        },
      })
      .thenEmits([
        {
          type: 'StepsReordered',
          data: {
            orders: [
              { stepId: 's1', before: 1, after: 2 },
              { stepId: 's2', before: 2, after: 1 },
            ],
            at: NOW,
          },
        },
      ]);
  });

  it('restores an earlier version as a new one, and refuses the current or an unknown version', () => {
    const history: FlowEvent[] = [
      created(),
      {
        type: 'StepEdited',
        data: {
          stepId: 's1',
          before: { systemPrompt: 'Prompt 1' },
          after: { systemPrompt: 'Worse' },
          at: NOW,
        },
      },
    ];
    const past = fold(decider, history.slice(0, 1));
    given(decider, history, atVersion)
      .when({ type: 'RestoreVersion', data: { version: 1, past } })
      .thenEmits([
        { type: 'FlowRestored', data: { version: 1, details: DETAILS, steps: past.steps, at: NOW } },
      ]);
    given(decider, history, atVersion)
      .when({ type: 'RestoreVersion', data: { version: 2, past: fold(decider, history) } })
      .thenThrows('rule_violated', 'Version 2 is the current version');
    given(decider, history, atVersion)
      .when({ type: 'RestoreVersion', data: { version: 5, past: decider.initialState() } })
      .thenThrows('not_found', 'Version 5 not found');
    // Restore, then edit: the edit applies to the restored prompt.
    const restored = fold(decider, [
      ...history,
      { type: 'FlowRestored', data: { version: 1, details: DETAILS, steps: past.steps, at: NOW } },
    ]);
    expect(restored.steps.find((s) => s.id === 's1')?.systemPrompt).toBe('Prompt 1');
  });
});

describe('a multiple_choice step needs a choice', () => {
  it('is refused when added or switched to multiple_choice without one, and kept when other fields change', () => {
    given(decider, [created()], atVersion)
      .when({
        type: 'AddStep',
        data: { step: step('s3', 3, { outputMode: 'multiple_choice', choices: [' '] }) },
      })
      .thenThrows('rule_violated', MULTIPLE_CHOICE_NEEDS_CHOICE);
    given(decider, [created()], atVersion)
      .when({ type: 'EditStep', data: { stepId: 's1', changes: { outputMode: 'multiple_choice' } } })
      .thenThrows('rule_violated', MULTIPLE_CHOICE_NEEDS_CHOICE);
    const choicesGiven = given(decider, [created()], atVersion).state;
    expect(
      decider.decide(
        {
          type: 'EditStep',
          data: { stepId: 's1', changes: { outputMode: 'multiple_choice', choices: ['Yes'] } },
        },
        choicesGiven,
        { now: NOW, userId: 'u1', version: 1 },
      ),
    ).toHaveLength(1);
    // A step saved before the rule, multiple_choice without a choice, can still be renamed.
    given(decider, [created([step('s1', 1, { outputMode: 'multiple_choice', choices: [] })])], atVersion)
      .when({ type: 'EditStep', data: { stepId: 's1', changes: { name: 'Renamed' } } })
      .thenEmits([
        {
          type: 'StepEdited',
          data: { stepId: 's1', before: { name: 'Step 1' }, after: { name: 'Renamed' }, at: NOW },
        },
      ]);
  });
});

describe('a flow as a whole is bounded', () => {
  const big = (id: string, order: number) => step(id, order, { systemPrompt: 'x'.repeat(90_000) });
  const bigSteps = Array.from({ length: 23 }, (_, i) => big(`b${i + 1}`, i + 1));

  it('refuses a flow, a step or an edit that would take its steps past MAX_FLOW_CHARS', () => {
    given(decider, [], atVersion)
      .when({
        type: 'CreateFlow',
        data: { flowId: 'f1', origin: 'json-import', details: DETAILS, steps: bigSteps },
      })
      .thenThrows('too_large', /một flow dài tối đa 2,000,000 ký tự/);
    const nearly = bigSteps.slice(0, 22);
    given(decider, [created(nearly)], atVersion)
      .when({ type: 'AddStep', data: { step: big('b23', 23) } })
      .thenThrows('too_large', /^Các step của flow sẽ dài 2,0\d\d,\d{3} ký tự/);
    given(decider, [created(nearly)], atVersion)
      .when({ type: 'EditStep', data: { stepId: 'b1', changes: { systemPrompt: 'y'.repeat(120_000) } } })
      .thenThrows('too_large', /một flow dài tối đa/);
    // An edit that does not grow it passes.
    expect(
      decider.decide(
        { type: 'EditStep', data: { stepId: 'b1', changes: { name: 'Shorter' } } },
        fold(decider, [created(nearly)]),
        { now: NOW, userId: 'u1', version: 1 },
      ),
    ).toHaveLength(1);
  });
});
