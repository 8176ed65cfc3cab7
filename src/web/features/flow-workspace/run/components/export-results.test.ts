import { describe, expect, it } from 'vitest';
import type { Execution } from '@/lib/execution-stream';
import { initialState } from '../../../../../domain/execution';
import { aFlowStep } from '../../../../../domain/execution/testing';
import type { StepResult } from '../../../../../domain/execution/types';
import { resultsText } from './export-results-button';

describe('the Export Results file', () => {
  it('lists per step its order, name and system prompt, then each result with label, time and content', () => {
    const steps = [
      aFlowStep(1, { id: 's1', name: 'Ý tưởng', systemPrompt: 'Đưa ra ý tưởng' }),
      aFlowStep(2, { id: 's2', name: 'Dàn ý', systemPrompt: 'Lập dàn ý cho [[step-1]]' }),
    ];
    const createdAt = '2026-11-22T10:00:00.000Z';
    const execution: Execution = {
      ...initialState(),
      exists: true,
      id: 'e1',
      steps,
      version: 3,
      results: [
        { id: 'r1', stepId: 's1', label: 'Branch 1', result: 'Du lịch Đà Nẵng', createdAt } as StepResult,
      ],
    };

    const text = resultsText(steps, execution);

    expect(text).toContain('Step 1: Ý tưởng\nSystem Prompt:\nĐưa ra ý tưởng');
    expect(text).toContain(`--- Branch 1 (${new Date(createdAt).toLocaleString('vi-VN')})\nDu lịch Đà Nẵng`);
    expect(text).toContain('Step 2: Dàn ý\nSystem Prompt:\nLập dàn ý cho [[step-1]]');
    expect(text.indexOf('Step 1: Ý tưởng')).toBeLessThan(text.indexOf('Step 2: Dàn ý'));
  });
});
