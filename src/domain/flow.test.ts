import { describe, expect, it } from 'vitest';
import { aStep } from './execution/testing';
import { normaliseStepConfig, type OutputMode, STEP_NAME_MAX_LENGTH, stepSettingsSchema } from './flow';

describe('normaliseStepConfig', () => {
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

describe('stepSettingsSchema (the step editor)', () => {
  const settings = {
    name: 'Dàn ý',
    systemPrompt: 'Lập dàn ý từ [[step-1]].',
    outputMode: 'single' as OutputMode,
    choices: [] as string[],
    maxLoopIterations: 1,
    inputSources: [],
    requiresUserInput: false,
  };
  const failing = (changes: Partial<typeof settings>) =>
    stepSettingsSchema.safeParse({ ...settings, ...changes }).error?.issues.map((issue) => issue.path[0]);

  it('takes settings that keep the rules', () => {
    expect(stepSettingsSchema.safeParse(settings).success).toBe(true);
    expect(failing({ outputMode: 'multiple_choice', choices: ['', 'Ngắn'] })).toBeUndefined();
  });

  it('needs a name that is not blank and not over its limit', () => {
    expect(failing({ name: '  ' })).toEqual(['name']);
    expect(failing({ name: 'x'.repeat(STEP_NAME_MAX_LENGTH + 1) })).toEqual(['name']);
  });

  it('needs a choice that is not blank for a multiple_choice step', () => {
    expect(failing({ outputMode: 'multiple_choice', choices: ['', '  '] })).toEqual(['choices']);
  });

  it('runs a loop 1 to 100 times', () => {
    expect(failing({ outputMode: 'loop', maxLoopIterations: 101 })).toEqual(['maxLoopIterations']);
  });
});
