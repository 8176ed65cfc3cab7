import { describe, expect, it } from 'vitest';
import { isProductRule } from '../errors';
import { SCORER_MESSAGES } from './code-scorers';
import {
  CONFIG_MESSAGES,
  checkExperimentConfig,
  configOfRequest,
  DEFAULT_CONCURRENCY,
  DEFAULT_REPETITIONS,
  experimentConfigSchema,
  MAX_EXPERIMENT_RUNS,
  reviewModeOf,
  startExperimentRequestSchema,
} from './config';
import { MAX_SCORERS } from './scorer-definitions';
import { configOf, STEPS } from './testing';

const FLOW = '0b4f6a3e-8d2c-4f1a-9b7e-1c2d3e4f5a6b';
const DATASET = '1c5a7b4f-9e3d-4a2b-8c8f-2d3e4f5a6b7c';
const ITEMS = [{ id: 'a' }, { id: 'b' }];

describe("an experiment's settings", () => {
  it('fill in their defaults', () => {
    expect(configOf()).toEqual({
      models: {},
      review: {},
      scorers: [],
      repetitions: DEFAULT_REPETITIONS,
      concurrency: DEFAULT_CONCURRENCY,
    });
    expect(reviewModeOf(configOf(), 'any-step')).toBe('human');
    expect(reviewModeOf(configOf({ review: { s: 'auto' } }), 's')).toBe('auto');
  });

  it('keep repetitions to 1-10 and concurrency to 1-20, whole numbers', () => {
    for (const repetitions of [0, 11, 1.5]) {
      const parsed = experimentConfigSchema.safeParse({ repetitions });
      expect(parsed.error?.issues[0]?.message).toBe('repetitions phải là số nguyên từ 1 đến 10');
    }
    for (const concurrency of [0, 21])
      expect(experimentConfigSchema.safeParse({ concurrency }).error?.issues[0]?.message).toBe(
        'concurrency phải là số nguyên từ 1 đến 20',
      );
    expect(configOf({ repetitions: 10, concurrency: 20 })).toMatchObject({
      repetitions: 10,
      concurrency: 20,
    });
  });

  it('take a review mode and a model by step id, and refuse others', () => {
    expect(experimentConfigSchema.safeParse({ review: { s: 'maybe' } }).success).toBe(false);
    expect(experimentConfigSchema.safeParse({ models: { s: 'not a model' } }).success).toBe(false);
    expect(experimentConfigSchema.safeParse({ colour: 'red' }).success).toBe(false);
  });

  it(`name at most ${MAX_SCORERS} scorers, each under its own name (a rule of the product)`, () => {
    const many = Array.from({ length: MAX_SCORERS + 1 }, (_, i) => ({ type: 'equals', name: `s${i}` }));
    expect(experimentConfigSchema.safeParse({ scorers: many }).success).toBe(false);
    const twice = experimentConfigSchema.safeParse({
      scorers: [
        { type: 'contains', text: 'a' },
        { type: 'contains', text: 'b' },
      ],
    });
    expect(twice.error?.issues).toEqual([
      expect.objectContaining({ path: ['scorers'], message: SCORER_MESSAGES.duplicateName('contains') }),
    ]);
    expect(isProductRule(twice.error!.issues[0] as { params?: unknown })).toBe(true);
    expect(
      experimentConfigSchema.safeParse({
        scorers: [
          { type: 'contains', text: 'a', name: 'Có a' },
          { type: 'contains', text: 'b', stepId: 's' },
        ],
      }).success,
    ).toBe(true);
  });
});

describe('the request that starts an experiment', () => {
  it('names the flow version and the dataset, its version when it pins one, and the settings', () => {
    const request = startExperimentRequestSchema.parse({
      flowId: FLOW,
      flowVersion: 4,
      datasetId: DATASET,
      review: { s: 'auto' },
    });
    expect(request).toMatchObject({ flowId: FLOW, flowVersion: 4, datasetId: DATASET });
    expect(request.datasetVersion).toBeUndefined();
    expect(configOfRequest(request)).toEqual(configOf({ review: { s: 'auto' } }));
  });

  it('is refused without its flow version or dataset, or with an unknown field', () => {
    expect(startExperimentRequestSchema.safeParse({ flowId: FLOW, datasetId: DATASET }).success).toBe(false);
    expect(startExperimentRequestSchema.safeParse({ flowId: FLOW, flowVersion: 1 }).success).toBe(false);
    expect(
      startExperimentRequestSchema.safeParse({ flowId: FLOW, flowVersion: 1, datasetId: DATASET, x: 1 })
        .success,
    ).toBe(false);
    expect(
      startExperimentRequestSchema.safeParse({ flowId: FLOW, flowVersion: 0, datasetId: DATASET }).error
        ?.issues[0]?.message,
    ).toBe('flowVersion phải là một số nguyên dương');
  });
});

describe('checkExperimentConfig', () => {
  const [one, two, three] = STEPS.map((step) => step.id) as [string, string, string];

  it('finds nothing wrong in settings that fit the flow version and the dataset', () => {
    const config = configOf({
      models: { [one]: 'openai:gpt-4.1-mini' },
      review: { [one]: 'auto', [three]: 'judge' },
      scorers: [
        { type: 'judge', model: 'openai:gpt-4.1', prompt: 'Đạt không?' },
        { type: 'equals', stepId: two },
      ],
    });
    expect(checkExperimentConfig(config, STEPS, ITEMS)).toEqual([]);
  });

  it('names a step the flow version does not have, in models, review and scorers', () => {
    const config = configOf({
      models: { nope: 'openai:gpt-4.1-mini' },
      review: { gone: 'auto' },
      scorers: [{ type: 'equals', stepId: 'lost' }],
    });
    expect(checkExperimentConfig(config, STEPS, ITEMS)).toEqual([
      CONFIG_MESSAGES.unknownStep('models', 'nope'),
      CONFIG_MESSAGES.unknownStep('review', 'gone'),
      SCORER_MESSAGES.unknownStep('equals (lost)', 'lost'),
    ]);
    expect(CONFIG_MESSAGES.unknownStep('models', 'nope')).toBe(
      'models: bước nope không có trong phiên bản flow đã chọn',
    );
  });

  it('needs items not archived, steps, and at most MAX_EXPERIMENT_RUNS runs', () => {
    expect(checkExperimentConfig(configOf(), STEPS, [{ id: 'a', archived: true }])).toEqual([
      CONFIG_MESSAGES.noItems,
    ]);
    expect(checkExperimentConfig(configOf(), [], ITEMS)).toEqual([CONFIG_MESSAGES.noSteps]);
    const items = Array.from({ length: MAX_EXPERIMENT_RUNS / 5 + 1 }, (_, i) => ({ id: `i${i}` }));
    expect(checkExperimentConfig(configOf({ repetitions: 5 }), STEPS, items)).toEqual([
      CONFIG_MESSAGES.tooManyRuns(items.length * 5),
    ]);
  });

  it('needs a judge scorer reading each step approved by judge, with its model', () => {
    const judgeOfTwo = { type: 'judge' as const, stepId: two, model: 'openai:gpt-4.1', prompt: 'Ok?' };
    expect(
      checkExperimentConfig(
        configOf({ review: { [two]: 'judge', [three]: 'judge' }, scorers: [judgeOfTwo] }),
        STEPS,
        ITEMS,
      ),
    ).toEqual([CONFIG_MESSAGES.judgeWithoutScorer(three)]);
    // Settings made without the schema: a judge with no model.
    const noModel = { ...configOf(), scorers: [{ ...judgeOfTwo, model: ' ' }] };
    expect(checkExperimentConfig(noModel, STEPS, ITEMS)).toEqual([
      SCORER_MESSAGES.of(`judge (${two})`, SCORER_MESSAGES.judgeWithoutModel),
    ]);
  });

  it('names scorers that share a name', () => {
    const config = { ...configOf(), scorers: [{ type: 'equals' as const }, { type: 'equals' as const }] };
    expect(checkExperimentConfig(config, STEPS, ITEMS)).toEqual([SCORER_MESSAGES.duplicateName('equals')]);
  });

  it('names at most as many steps per setting as a flow may have', () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`s${i}`, 'auto']));
    const parsed = experimentConfigSchema.safeParse({ review: many });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe('review: tối đa 100 step');
  });
});
