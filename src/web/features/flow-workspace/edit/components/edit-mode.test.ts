import { describe, expect, it } from 'vitest';
import { aFlowStep } from '../../../../../domain/execution/testing';
import { promptLabelsOf } from './prompt-labels';
import { draftChanges, draftOf, draftProblem, hasDraftChanges, type StepDraft } from './step-draft';

const research = aFlowStep(1, { id: 's1', name: 'Nghiên cứu' });
const outline = aFlowStep(2, { id: 's2', name: 'Dàn ý' });
const draft = aFlowStep(3, { id: 's3', name: 'Bản nháp' });
const steps = [research, outline, draft];

describe('labels listed under a prompt', () => {
  it('lists each [[label]] once, in order, with the earlier step it names', () => {
    const prompt = 'Viết từ [[step-1]] theo [[ dàn ý ]], giọng [[Tone]], lại [[step-1]] và [[step_2]].';
    expect(promptLabelsOf(prompt, draft, steps)).toEqual([
      { label: 'step-1', step: research },
      { label: 'dàn ý', step: outline },
      { label: 'Tone', step: null },
      { label: 'step_2', step: outline },
    ]);
  });

  it('names no step for the step itself or a later one', () => {
    expect(promptLabelsOf('[[step-2]] [[step-3]] [[Bản nháp]]', outline, steps)).toEqual([
      { label: 'step-2', step: null },
      { label: 'step-3', step: null },
      { label: 'Bản nháp', step: null },
    ]);
  });

  it('lists nothing for a prompt without labels', () => {
    expect(promptLabelsOf('Không có nhãn [[ ]]', draft, steps)).toEqual([]);
  });
});

describe('the step editor draft', () => {
  const editing = (fields: Partial<StepDraft['fields']>, step = outline): StepDraft => {
    const start = draftOf(step, true);
    return { ...start, fields: { ...start.fields, ...fields } };
  };

  it('has nothing to save until a field changes', () => {
    expect(draftChanges(draftOf(outline, true))).toEqual({});
    expect(hasDraftChanges(draftOf(outline, true))).toBe(false);
    expect(hasDraftChanges(editing({ systemPrompt: 'Mới' }))).toBe(true);
  });

  it('has nothing to save while not editing', () => {
    expect(hasDraftChanges({ ...editing({ systemPrompt: 'Mới' }), editing: false })).toBe(false);
  });

  it('sends only the changed fields', () => {
    expect(draftChanges(editing({ systemPrompt: 'Mới', inputSources: ['s1'] }))).toEqual({
      systemPrompt: 'Mới',
      inputSources: ['s1'],
    });
  });

  it('sends a mode with its settings made by the rule: choices kept, blank ones dropped', () => {
    expect(draftChanges(editing({ outputMode: 'multiple_choice', choices: [' Ngắn ', '', 'Dài'] }))).toEqual({
      outputMode: 'multiple_choice',
      choices: ['Ngắn', 'Dài'],
      loopTargetStepId: null,
      maxLoopIterations: 1,
    });
  });

  it('clears the choices and loop settings when the mode leaves them', () => {
    const choice = aFlowStep(2, { id: 's2', outputMode: 'multiple_choice', choices: ['A', 'B'] });
    expect(draftChanges(editing({ outputMode: 'single', maxLoopIterations: 9 }, choice))).toEqual({
      outputMode: 'single',
      choices: [],
      loopTargetStepId: null,
      maxLoopIterations: 1,
    });
  });

  it('locks a loop to the step itself', () => {
    expect(draftChanges(editing({ outputMode: 'loop', maxLoopIterations: 4 }))).toEqual({
      outputMode: 'loop',
      choices: [],
      loopTargetStepId: 's2',
      maxLoopIterations: 4,
    });
  });

  it('refuses a multiple_choice step without a choice and a step without a name', () => {
    expect(draftProblem(editing({ outputMode: 'multiple_choice', choices: ['  '] }))).toBe('needChoice');
    expect(draftProblem(editing({ outputMode: 'multiple_choice', choices: ['A'] }))).toBeNull();
    expect(draftProblem(editing({ outputMode: 'single', choices: [] }))).toBeNull();
    expect(draftProblem(editing({ name: ' ' }))).toBe('needName');
  });
});
