import { describe, expect, it } from 'vitest';
import { aFlowStep } from '../execution/testing';
import { MAX_FLOW_STEPS, MULTIPLE_CHOICE_NEEDS_CHOICE } from '../flow';
import { REVIEW_MESSAGES, type StepReview } from '../step-review';
import { fold, given } from '../testing';
import type { FlowCommand, FlowContext } from './commands';
import {
  decider,
  FLOW_NOT_FOUND,
  INPUT_SOURCES_EARLIER,
  STEP_NOT_FOUND,
  TOO_MANY_STEPS,
  takenAsInputBy,
} from './decider';
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
      .thenThrows('conflict', 'Flow đã tồn tại');
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

  it('keeps a step before the steps that take it as an input source when it is moved', () => {
    // s2 (Step 2) takes s1: s1 moved to or past it would feed it from a later step.
    const taking = [step('s1', 1), step('s2', 2, { name: 'Draft', inputSources: ['s1'] }), step('s3', 3)];
    for (const order of [2, 5]) {
      given(decider, [created(taking)], atVersion)
        .when({ type: 'EditStep', data: { stepId: 's1', changes: { order } } })
        .thenThrows('rule_violated', takenAsInputBy('Draft'));
      given(decider, [created(taking)], atVersion)
        .when({ type: 'ReorderSteps', data: { orders: [{ stepId: 's1', order }] } })
        .thenThrows('rule_violated', takenAsInputBy('Draft'));
    }
    // Moved together, the order between them kept: allowed.
    given(decider, [created(taking)], atVersion)
      .when({
        type: 'ReorderSteps',
        data: {
          orders: [
            { stepId: 's1', order: 4 },
            { stepId: 's2', order: 5 },
            { stepId: 's3', order: 1 },
          ],
        },
      })
      .thenEmits([
        {
          type: 'StepsReordered',
          data: {
            orders: [
              { stepId: 's1', before: 1, after: 4 },
              { stepId: 's2', before: 2, after: 5 },
              { stepId: 's3', before: 3, after: 1 },
            ],
            at: NOW,
          },
        },
      ]);
    // Another edit of a step taken as input is its own: only a move is checked.
    given(decider, [created(taking)], atVersion)
      .when({ type: 'EditStep', data: { stepId: 's1', changes: { systemPrompt: 'New' } } })
      .thenEmits([
        {
          type: 'StepEdited',
          data: {
            stepId: 's1',
            before: { systemPrompt: 'Prompt 1' },
            after: { systemPrompt: 'New' },
            at: NOW,
          },
        },
      ]);
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
      .thenThrows('rule_violated', 'Phiên bản 2 đang là phiên bản hiện tại');
    given(decider, history, atVersion)
      .when({ type: 'RestoreVersion', data: { version: 5, past: decider.initialState() } })
      .thenThrows('not_found', 'Không tìm thấy phiên bản 5');
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

describe("a step's review rule in a workspace", () => {
  const WORKSPACE = 'w1';
  const OWNER = 'u1';
  const EDITOR = 'u2';
  const members = [
    { userId: OWNER, role: 'owner' as const },
    { userId: EDITOR, role: 'editor' as const },
    { userId: 'u3', role: 'reviewer' as const },
    { userId: 'u4', role: 'auditor' as const },
  ];
  const byRole = { by: 'role' as const, role: 'reviewer' as const, approvals: 1, selfApproval: false };
  const byMembers = (userIds: string[], fields: Partial<StepReview> = {}): StepReview => ({
    by: 'members',
    userIds,
    approvals: 1,
    selfApproval: false,
    ...fields,
  });
  const inWorkspace = (steps: VersionedStep[]): FlowEvent => ({
    type: 'FlowCreated',
    data: {
      flowId: 'f1',
      userId: OWNER,
      origin: 'manual',
      workspaceId: WORKSPACE,
      details: DETAILS,
      steps,
      at: EARLIER,
    },
  });
  const reviewed = [inWorkspace([step('s1', 1, { review: byRole }), step('s2', 2)])];
  /** Decided by `userId`, with their role in the workspace as its members say. */
  const as =
    (userId: string) =>
    (_state: FlowState, version: number): FlowContext => ({
      now: NOW,
      userId,
      version,
      role: members.find((member) => member.userId === userId)?.role ?? null,
      members,
    });
  const edit = (stepId: string, review: StepReview | null) =>
    ({ type: 'EditStep', data: { stepId, changes: { review } } }) as const;

  it("is an owner's to change or remove, recorded as any edit; an editor is refused", () => {
    given(decider, reviewed, as(EDITOR))
      .when(edit('s1', { ...byRole, approvals: 2 }))
      .thenThrows('forbidden', REVIEW_MESSAGES.ownersOnly);
    given(decider, reviewed, as(EDITOR))
      .when(edit('s1', null))
      .thenThrows('forbidden', REVIEW_MESSAGES.ownersOnly);
    given(decider, reviewed, as(EDITOR))
      .when(edit('s2', byRole))
      .thenThrows('forbidden', REVIEW_MESSAGES.ownersOnly);
    given(decider, reviewed, as(OWNER))
      .when(edit('s1', null))
      .thenEmits([
        {
          type: 'StepEdited',
          data: { stepId: 's1', before: { review: byRole }, after: { review: null }, at: NOW },
        },
      ]);
  });

  it("is an owner's to switch off by making its step multiple_choice, whose pick no review checks", () => {
    const toChoice: FlowCommand = {
      type: 'EditStep',
      data: { stepId: 's1', changes: { outputMode: 'multiple_choice', choices: ['Yes', 'No'] } },
    };
    given(decider, reviewed, as(EDITOR))
      .when(toChoice)
      .thenThrows('forbidden', REVIEW_MESSAGES.choiceDropsRule);
    expect(given(decider, reviewed, as(OWNER)).when(toChoice).events()).toHaveLength(1);
    // A version in which the step was multiple_choice under the same rule is the owners' to restore too.
    const history = [
      inWorkspace([step('s1', 1, { review: byRole, outputMode: 'multiple_choice', choices: ['Yes'] })]),
    ];
    const past = fold(decider, history);
    const single: FlowEvent = {
      type: 'StepEdited',
      data: {
        stepId: 's1',
        before: { outputMode: 'multiple_choice' },
        after: { outputMode: 'single' },
        at: NOW,
      },
    };
    given(decider, [...history, single], as(EDITOR))
      .when({ type: 'RestoreVersion', data: { version: 1, past } })
      .thenThrows('forbidden', REVIEW_MESSAGES.versionHasOtherRules);
  });

  it('lets an editor save a step whose rule stays as it is', () => {
    given(decider, reviewed, as(EDITOR))
      .when({ type: 'EditStep', data: { stepId: 's1', changes: { name: 'Draft', review: { ...byRole } } } })
      .thenEmits([
        {
          type: 'StepEdited',
          data: { stepId: 's1', before: { name: 'Step 1' }, after: { name: 'Draft' }, at: NOW },
        },
      ]);
  });

  it('is refused to an editor on every other path that would change it', () => {
    const { createdAt: _unused, ...added } = step('s3', 3, { review: byRole });
    given(decider, reviewed, as(EDITOR))
      .when({ type: 'AddStep', data: { step: added } })
      .thenThrows('forbidden', REVIEW_MESSAGES.ownersOnly);
    given(decider, reviewed, as(EDITOR))
      .when({ type: 'RemoveStep', data: { stepId: 's1' } })
      .thenThrows('forbidden', REVIEW_MESSAGES.stepHasRule);
    // A step without a rule is the editor's to remove.
    expect(
      given(decider, reviewed, as(EDITOR))
        .when({ type: 'RemoveStep', data: { stepId: 's2' } })
        .events(),
    ).toHaveLength(1);
    given(decider, reviewed, as(EDITOR))
      .when({ type: 'DeleteFlow', data: {} })
      .thenThrows('forbidden', REVIEW_MESSAGES.flowHasRules('delete it'));
    given(decider, reviewed, as(EDITOR))
      .when({ type: 'MoveFlow', data: { workspaceId: 'w2' } })
      .thenThrows('forbidden', REVIEW_MESSAGES.flowHasRules('move it out of the workspace'));
    given(decider, [], as(EDITOR))
      .when({
        type: 'CreateFlow',
        data: {
          flowId: 'f2',
          origin: 'json-import',
          workspaceId: WORKSPACE,
          details: DETAILS,
          steps: [step('s1', 1, { review: byRole })],
        },
      })
      .thenThrows('forbidden', REVIEW_MESSAGES.ownersOnly);
    // A version from before the rule was set: restoring it would remove the rule.
    const ruleSet: FlowEvent = {
      type: 'StepEdited',
      data: { stepId: 's1', before: { review: null }, after: { review: byRole }, at: NOW },
    };
    const history = [inWorkspace([step('s1', 1)]), ruleSet];
    const past = fold(decider, history.slice(0, 1));
    given(decider, history, as(EDITOR))
      .when({ type: 'RestoreVersion', data: { version: 1, past } })
      .thenThrows('forbidden', REVIEW_MESSAGES.versionHasOtherRules);
    expect(
      given(decider, history, as(OWNER))
        .when({ type: 'RestoreVersion', data: { version: 1, past } })
        .events(),
    ).toHaveLength(1);
  });

  it('is refused on save when no one but the person saving could meet it', () => {
    const saving = (review: StepReview) => given(decider, reviewed, as(OWNER)).when(edit('s2', review));
    saving(byMembers([OWNER])).thenThrows('rule_violated', REVIEW_MESSAGES.onlyYou);
    saving(byMembers([OWNER], { selfApproval: true })).thenThrows('rule_violated', REVIEW_MESSAGES.onlyYou);
    saving(byMembers([OWNER, 'u3'], { approvals: 2 })).thenThrows(
      'rule_violated',
      REVIEW_MESSAGES.tooFewOthers(1),
    );
    expect(saving(byMembers([OWNER, 'u3'], { approvals: 2, selfApproval: true })).events()).toHaveLength(1);
    saving(byMembers(['u4'])).thenThrows('rule_violated', REVIEW_MESSAGES.notAReviewer);
    saving(byMembers(['stranger'])).thenThrows('rule_violated', REVIEW_MESSAGES.notAReviewer);
    saving({ ...byRole, approvals: 2 }).thenThrows(
      'rule_violated',
      REVIEW_MESSAGES.tooFewOfRole('reviewer', 1),
    );
    // The owner holding the role is the one saving: no other owner.
    saving({ ...byRole, role: 'owner' }).thenThrows(
      'rule_violated',
      REVIEW_MESSAGES.tooFewOfRole('owner', 0),
    );
    expect(saving(byMembers([EDITOR, 'u3'], { approvals: 2 })).events()).toHaveLength(1);
  });

  it("keeps a flow of its owner's own as it was: its owner sets a runner's rule", () => {
    given(decider, [created()], atVersion)
      .when(edit('s1', { by: 'runner', approvals: 1, selfApproval: true }))
      .thenEmits([
        {
          type: 'StepEdited',
          data: {
            stepId: 's1',
            before: {},
            after: { review: { by: 'runner', approvals: 1, selfApproval: true } },
            at: NOW,
          },
        },
      ]);
  });
});
