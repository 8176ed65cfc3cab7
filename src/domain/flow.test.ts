import { describe, expect, it } from 'vitest';
import { aStep } from './execution/testing';
import { normaliseStepConfig } from './flow';

describe('normaliseStepConfig (spec §5)', () => {
  const configured = aStep(2, {
    id: 'step-2',
    choices: ['Ngắn', 'Dài'],
    loopTargetStepId: 'step-1',
    maxLoopIterations: 5,
  });

  it('keeps the choices of a multiple_choice step and clears its loop settings', () => {
    expect(normaliseStepConfig({ ...configured, outputMode: 'multiple_choice' })).toMatchObject({
      choices: ['Ngắn', 'Dài'],
      loopTargetStepId: null,
      maxLoopIterations: 1,
    });
  });

  it.each(['single', 'multiple', 'loop'] as const)('saves no choices for a %s step', (outputMode) => {
    expect(normaliseStepConfig({ ...configured, outputMode }).choices).toEqual([]);
  });

  it.each(['single', 'multiple', 'multiple_choice'] as const)(
    'gives a %s step no loop target and one iteration',
    (outputMode) => {
      const saved = normaliseStepConfig({ ...configured, outputMode });
      expect(saved.loopTargetStepId).toBeNull();
      expect(saved.maxLoopIterations).toBe(1);
    },
  );

  it('locks a loop to the step itself and keeps its iteration count', () => {
    expect(normaliseStepConfig({ ...configured, outputMode: 'loop' })).toMatchObject({
      loopTargetStepId: 'step-2',
      maxLoopIterations: 5,
    });
  });

  it('leaves a change that does not name the mode as it is', () => {
    expect(normaliseStepConfig({ systemPrompt: 'Chỉ sửa prompt' })).toEqual({
      systemPrompt: 'Chỉ sửa prompt',
    });
  });

  it('keeps the other fields', () => {
    const saved = normaliseStepConfig({ ...configured, outputMode: 'single', requiresUserInput: true });
    expect(saved).toMatchObject({ name: 'Step 2', systemPrompt: 'Prompt 2', requiresUserInput: true });
  });
});
