import { describe, expect, it } from 'vitest';
import {
  defaultFormValues,
  experimentFormSchema,
  newScorer,
  requestOf,
  scorerOf,
  withStepNames,
} from './experiment-form-values';

const FLOW = '11111111-1111-4111-8111-111111111111';
const DATASET = '22222222-2222-4222-8222-222222222222';
const BASELINE = '33333333-3333-4333-8333-333333333333';

const filled = () =>
  defaultFormValues({
    flowVersion: '3',
    datasetId: DATASET,
    review: { a: 'auto', b: 'human' },
    models: { a: ' openai:gpt-4.1-mini ', b: '' },
  });

describe('the experiment form', () => {
  it('makes the request: numbers from their text, empty models and baseline left out', () => {
    expect(requestOf(FLOW, filled())).toEqual({
      flowId: FLOW,
      flowVersion: 3,
      datasetId: DATASET,
      models: { a: 'openai:gpt-4.1-mini' },
      review: { a: 'auto', b: 'human' },
      scorers: [],
      repetitions: 1,
      concurrency: 4,
    });
    expect(requestOf(FLOW, { ...filled(), baselineId: BASELINE })).toMatchObject({ baselineId: BASELINE });
  });

  it("sends only the fields of each scorer's type, what was left empty left out", () => {
    expect(scorerOf({ ...newScorer('contains'), text: 'trà', pattern: 'x' })).toEqual({
      type: 'contains',
      text: 'trà',
    });
    expect(scorerOf({ ...newScorer('length'), name: ' Dài ', stepId: 'b', min: '10', max: '' })).toEqual({
      type: 'length',
      name: 'Dài',
      stepId: 'b',
      min: 10,
    });
    expect(scorerOf({ ...newScorer('equals'), caseSensitive: true })).toEqual({
      type: 'equals',
      caseSensitive: true,
    });
    expect(scorerOf({ ...newScorer('jsonSchema'), schema: '{"type":"object"}' })).toEqual({
      type: 'jsonSchema',
      schema: { type: 'object' },
    });
    expect(scorerOf({ ...newScorer('similarity'), threshold: '0.8' })).toEqual({
      type: 'similarity',
      threshold: 0.8,
    });
    expect(scorerOf({ ...newScorer('judge'), model: 'openai:gpt-4.1-mini', prompt: 'Is it good?' })).toEqual({
      type: 'judge',
      model: 'openai:gpt-4.1-mini',
      prompt: 'Is it good?',
    });
  });

  it("passes a good form through the domain's schema, as the request", async () => {
    const checked = await experimentFormSchema(FLOW).safeParseAsync(filled());
    expect(checked.success).toBe(true);
    expect(checked.data).toMatchObject({ flowId: FLOW, flowVersion: 3, repetitions: 1, scorers: [] });
  });

  it('refuses at its field what the form or the domain refuses', async () => {
    const issues = async (values: ReturnType<typeof filled>) => {
      const checked = await experimentFormSchema(FLOW).safeParseAsync(values);
      return (checked.error?.issues ?? []).map((issue) => issue.path.join('.'));
    };
    expect(await issues({ ...filled(), datasetId: '' })).toContain('datasetId');
    expect(await issues({ ...filled(), repetitions: '11' })).toContain('repetitions');
    expect(await issues({ ...filled(), concurrency: 'x' })).toContain('concurrency');
    expect(await issues({ ...filled(), scorers: [{ ...newScorer('contains'), text: '' }] })).toContain(
      'scorers.0.text',
    );
    expect(await issues({ ...filled(), scorers: [{ ...newScorer('jsonSchema'), schema: '[1' }] })).toContain(
      'scorers.0.schema',
    );
    expect(await issues({ ...filled(), scorers: [{ ...newScorer('regex'), pattern: '(a' }] })).toContain(
      'scorers',
    );
  });
});

describe("the server's refusal", () => {
  it('names the steps it names by id by their names', () => {
    expect(
      withStepNames('review: bước s-1 được duyệt bằng judge; models: bước s-2', [
        { id: 's-1', name: 'Bài viết' },
        { id: 's-9', name: 'Khác' },
      ]),
    ).toBe('review: bước "Bài viết" được duyệt bằng judge; models: bước s-2');
  });
});
