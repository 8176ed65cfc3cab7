import { describe, expect, it } from 'vitest';
import {
  type BaselineFacts,
  canReuseFrom,
  firstChangedStep,
  planReuse,
  planRuns,
  reusedStepIds,
  stepsAsRun,
} from './plan';
import { aStep, configOf, DATASET_ID, FLOW_ID } from './testing';

const one = aStep(1);
const two = aStep(2);
const three = aStep(3);
const steps = [one, two, three];

describe('planRuns', () => {
  it('plans one run per item not archived and repetition, the first repetition of every item first', () => {
    const items = [{ id: 'b' }, { id: 'a', archived: true }, { id: 'c' }, { id: 'b' }];
    expect(planRuns(items, 2)).toEqual([
      { runKey: 'b#1', itemId: 'b', repetition: 1 },
      { runKey: 'c#1', itemId: 'c', repetition: 1 },
      { runKey: 'b#2', itemId: 'b', repetition: 2 },
      { runKey: 'c#2', itemId: 'c', repetition: 2 },
    ]);
    expect(planRuns(items, 2)).toEqual(planRuns(items, 2));
  });
});

describe('firstChangedStep', () => {
  it('is where the first step differs in what it runs: prompt, model, settings, place', () => {
    expect(firstChangedStep(steps, steps)).toBe(3);
    expect(firstChangedStep(steps, [one, two, aStep(3, { systemPrompt: 'Changed' })])).toBe(2);
    expect(firstChangedStep(steps, [one, aStep(2, { model: 'openai:gpt-4.1' }), three])).toBe(1);
    expect(firstChangedStep(steps, [one, aStep(2, { outputMode: 'multiple' }), three])).toBe(1);
    expect(firstChangedStep(steps, [aStep(1, { inputSources: ['x'] }), two, three])).toBe(0);
    expect(firstChangedStep(steps, [one, two])).toBe(2);
    expect(firstChangedStep(steps, [two, one, three])).toBe(0);
    expect(firstChangedStep(steps, [one, aStep(2, { order: 5 }), three])).toBe(1);
  });

  it('reads steps as runs execute them: in order, with the models the experiment gives, review rules left out', () => {
    const before = stepsAsRun([three, two, one], {});
    expect(before.map((step) => step.id)).toEqual(steps.map((step) => step.id));
    const reviewed = aStep(2, { review: { by: 'role', role: 'reviewer', approvals: 1 } } as never);
    expect(firstChangedStep(before, stepsAsRun([one, reviewed, three], {}))).toBe(3);
    const modelled = stepsAsRun(steps, { [two.id]: 'openai:gpt-4.1' });
    expect(modelled[1]!.model).toBe('openai:gpt-4.1');
    expect(firstChangedStep(before, modelled)).toBe(1);
    expect(
      firstChangedStep(stepsAsRun([one, aStep(2, { model: 'openai:gpt-4.1' }), three], {}), modelled),
    ).toBe(3);
  });
});

describe('planReuse', () => {
  const runs = planRuns([{ id: 'a' }, { id: 'b' }, { id: 'c' }], 1);
  const baseline: BaselineFacts = {
    experimentId: 'experiment-0',
    flowId: FLOW_ID,
    datasetId: DATASET_ID,
    steps,
    config: configOf(),
    completedRuns: [
      { runKey: 'a#1', executionId: 'base-a' },
      { runKey: 'b#1', executionId: 'base-b' },
    ],
  };
  const plan = (fields: Partial<Parameters<typeof planReuse>[0]> = {}) =>
    planReuse({
      flowId: FLOW_ID,
      datasetId: DATASET_ID,
      steps,
      config: configOf(),
      runs,
      baseline,
      ...fields,
    });

  it("takes the steps before the first changed one from the baseline's completed run of the same item and repetition", () => {
    const { reuseBefore, runs: planned } = plan({ steps: [one, two, aStep(3, { systemPrompt: 'New' })] });
    expect(reuseBefore).toBe(three.id);
    expect(planned.map((run) => run.baselineExecutionId)).toEqual(['base-a', 'base-b', undefined]);
  });

  it('runs the last step again when nothing changed', () => {
    expect(plan().reuseBefore).toBe(three.id);
    expect(plan({ steps: [one, two] }).reuseBefore).toBe(two.id);
  });

  it('reuses nothing when the first step changed, or the baseline is of another flow or dataset', () => {
    const none = { reuseBefore: null, runs };
    expect(plan({ steps: [aStep(1, { systemPrompt: 'New' }), two, three] })).toEqual(none);
    expect(plan({ config: configOf({ models: { [one.id]: 'openai:gpt-4.1' } }) })).toEqual(none);
    expect(plan({ flowId: 'flow-2' })).toEqual(none);
    expect(plan({ datasetId: 'dataset-2' })).toEqual(none);
    expect(plan({ steps: [one] })).toEqual(none);
  });

  it('does not reuse for an item whose content changed between the dataset versions', () => {
    const { runs: planned } = plan({ changedItemIds: ['a'] });
    expect(planned.map((run) => run.baselineExecutionId)).toEqual([undefined, 'base-b', undefined]);
  });
});

describe('reusedStepIds and canReuseFrom', () => {
  it('are the steps before the first run, and whether each has an approved result to take', () => {
    const ids = steps.map((step) => step.id);
    expect(reusedStepIds(ids, three.id)).toEqual([one.id, two.id]);
    expect(reusedStepIds(ids, null)).toEqual([]);
    const results = [
      { stepId: one.id, approved: true },
      { stepId: two.id, approved: false },
    ];
    expect(canReuseFrom(results, [one.id])).toBe(true);
    expect(canReuseFrom(results, [one.id, two.id])).toBe(false);
    expect(canReuseFrom([...results, { stepId: two.id, approved: true }], [one.id, two.id])).toBe(true);
  });
});
