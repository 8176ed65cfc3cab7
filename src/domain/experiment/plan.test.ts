import fc from 'fast-check';
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

describe('the plan, as properties', () => {
  const itemId: fc.Arbitrary<string> = fc.constantFrom('a', 'b', 'c', 'd', 'e');
  const itemsArb = fc.array(fc.record({ id: itemId, archived: fc.boolean() }), { maxLength: 8 });

  it('has one run per item not archived and repetition, each key once, in the same order every time', () => {
    fc.assert(
      fc.property(itemsArb, fc.integer({ min: 1, max: 10 }), (items, repetitions) => {
        const runs = planRuns(items, repetitions);
        const active = new Set(items.filter((item) => !item.archived).map((item) => item.id));
        expect(runs).toHaveLength(active.size * repetitions);
        expect(new Set(runs.map((run) => run.runKey)).size).toBe(runs.length);
        expect(runs.every((run) => active.has(run.itemId) && run.repetition <= repetitions)).toBe(true);
        expect(planRuns([...items], repetitions)).toEqual(runs);
      }),
      { seed: 20261129, numRuns: 200 },
    );
  });

  it('reuses only steps that are the same as the baseline ran them, and never the last', () => {
    const edit = fc.record({
      at: fc.nat({ max: 3 }),
      change: fc.constantFrom('prompt', 'model', 'none'),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(edit, { maxLength: 3 }), (count, edits) => {
        const before = Array.from({ length: count }, (_, i) => aStep(i + 1));
        const after = before.map((step, i) => {
          const mine = edits.filter((e) => e.at === i).map((e) => e.change);
          return {
            ...step,
            ...(mine.includes('prompt') ? { systemPrompt: `${step.systemPrompt}!` } : {}),
            ...(mine.includes('model') ? { model: 'openai:gpt-4.1' } : {}),
          };
        });
        const runs = planRuns([{ id: 'a' }], 1);
        const completedRuns = [{ runKey: 'a#1', executionId: 'base-a' }];
        const { reuseBefore } = planReuse({
          flowId: FLOW_ID,
          datasetId: DATASET_ID,
          steps: after,
          config: configOf(),
          runs,
          baseline: {
            experimentId: 'x',
            flowId: FLOW_ID,
            datasetId: DATASET_ID,
            steps: before,
            config: configOf(),
            completedRuns,
          },
        });
        const from = reuseBefore === null ? 0 : after.findIndex((step) => step.id === reuseBefore);
        expect(from).toBeLessThan(after.length);
        for (let i = 0; i < from; i++) expect(after[i]).toEqual(before[i]);
        // The first step that changed runs again, or (nothing changed) the last one.
        const changed = after.findIndex((step, i) => JSON.stringify(step) !== JSON.stringify(before[i]));
        expect(from).toBe(changed === -1 ? after.length - 1 : changed);
      }),
      { seed: 20261129, numRuns: 200 },
    );
  });
});
