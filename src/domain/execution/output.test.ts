import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { parseStepOutput, type StepOutput } from './output';

const answer = (fields: Partial<StepOutput>): StepOutput => ({
  outputMode: 'single',
  choices: [],
  loopIteration: 0,
  output: '',
  ...fields,
});

const empty = { branchName: null, branchPath: null, choiceIndex: null, loopIteration: null };

function refusal(fields: Partial<StepOutput>) {
  try {
    parseStepOutput(answer(fields));
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
}

describe('parseStepOutput', () => {
  it('single: the whole answer is one result, Branch 1', () => {
    expect(parseStepOutput(answer({ output: 'Hello [not json]' }))).toEqual([
      { ...empty, label: 'Branch 1', content: 'Hello [not json]' },
    ]);
  });

  it('loop: one result labelled with its iteration', () => {
    expect(parseStepOutput(answer({ outputMode: 'loop', loopIteration: 2, output: 'turn' }))).toEqual([
      { ...empty, label: 'Loop 2', loopIteration: 2, content: 'turn' },
    ]);
  });

  it('multiple: one result per branch, unnamed ones numbered', () => {
    const output = JSON.stringify([
      { branchName: 'Bold', content: 'one' },
      { branchName: '  ', content: 'two' },
      { content: 'three' },
    ]);
    expect(parseStepOutput(answer({ outputMode: 'multiple', output }))).toEqual([
      { ...empty, label: 'Bold', branchName: 'Bold', content: 'one' },
      { ...empty, label: 'Branch 2', content: 'two' },
      { ...empty, label: 'Branch 3', content: 'three' },
    ]);
  });

  it('multiple: accepts {branches: [...]} and a markdown fence around the JSON', () => {
    const output = '```json\n{"branches": [{"branchName": "A", "content": "x"}]}\n```';
    expect(parseStepOutput(answer({ outputMode: 'multiple', output })).map((r) => r.label)).toEqual(['A']);
  });

  it.each([
    ['plain text', 'just prose'],
    ['an empty list', '[]'],
    ['items without content', '[{"branchName": "A"}]'],
    ['an object of another shape', '{"answer": "x"}'],
  ])('multiple: refuses %s', (_, output) => {
    const error = refusal({ outputMode: 'multiple', output });
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      kind: 'model_failed',
      message: expect.stringMatching(/multiple-output format/),
    });
  });

  const choices = ['Go wide', 'Go deep'];

  it('multiple_choice: the chosen option, matched loosely, with its reason', () => {
    const output = JSON.stringify({ choice: ' go DEEP ', reason: 'Fewer risks' });
    expect(parseStepOutput(answer({ outputMode: 'multiple_choice', choices, output }))).toEqual([
      {
        ...empty,
        label: 'path: Go deep',
        branchName: 'Go deep',
        branchPath: 'Go deep',
        choiceIndex: 1,
        content: 'Go deep\n\nFewer risks',
      },
    ]);
  });

  it('multiple_choice: accepts a 0-based choiceIndex', () => {
    const [result] = parseStepOutput(
      answer({ outputMode: 'multiple_choice', choices, output: '{"choiceIndex": 0}' }),
    );
    expect(result).toMatchObject({ label: 'path: Go wide', choiceIndex: 0, content: 'Go wide' });
  });

  it.each([
    ['an option not offered', '{"choice": "Go sideways"}'],
    ['an index out of range', '{"choiceIndex": 2}'],
    ['no choice at all', '{"reason": "hmm"}'],
    ['plain text', 'Go deep'],
  ])('multiple_choice: refuses %s', (_, output) => {
    expect(refusal({ outputMode: 'multiple_choice', choices, output })).toMatchObject({
      kind: 'model_failed',
      message: expect.stringContaining('Go wide | Go deep'),
    });
  });

  it('multiple_choice: a step without choices cannot take a path', () => {
    expect(refusal({ outputMode: 'multiple_choice', output: '{"choice": "x"}' })).toMatchObject({
      kind: 'model_failed',
    });
  });
});
