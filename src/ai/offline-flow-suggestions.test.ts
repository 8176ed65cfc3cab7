import { describe, expect, it } from 'vitest';
import { aStep } from '../domain/execution/testing';
import type { FlowReview } from '../domain/flow-suggestions';
import { offlineFlowSuggestions } from './offline-flow-suggestions';

function review(fields: Partial<FlowReview>): FlowReview {
  return {
    flow: { name: 'Launch plan', description: 'Plan a product launch' },
    steps: [],
    requests: [],
    edits: [],
    rejectedIdeas: [],
    resultCounts: [],
    ...fields,
  };
}

const longPrompt = (topic: string) => `Write a detailed plan about ${topic} for the launch team, as a list.`;

describe('offline flow suggestions', () => {
  it("quotes a failed run's message and ranks that step first in the recommendation", () => {
    const steps = [
      aStep(1, { name: 'Market', systemPrompt: longPrompt('the market') }),
      aStep(2, { name: 'Pricing', systemPrompt: `${longPrompt('pricing')} [[step-1]]` }),
    ];
    const suggestions = offlineFlowSuggestions(
      review({
        steps,
        requests: [
          {
            stepId: steps[1]!.id,
            stepOrder: 2,
            success: false,
            answer: null,
            errorMessage: 'The Gemini API quota or rate limit was reached (429).',
          },
          {
            stepId: steps[1]!.id,
            stepOrder: 2,
            success: true,
            answer: 'Price at 9 EUR.',
            errorMessage: null,
          },
          { stepId: steps[0]!.id, stepOrder: 1, success: true, answer: 'A big market.', errorMessage: null },
        ],
        resultCounts: [{ stepId: steps[0]!.id, total: 1, approved: 0 }],
      }),
    );
    expect(suggestions.suggestions[1]!.suggestion).toContain(
      '1 trong 2 lần chạy thất bại, gần nhất với lỗi "The Gemini API quota or rate limit was reached (429)."',
    );
    expect(suggestions.suggestions[0]!.suggestion).toContain('1 kết quả của step này không có lỗi');
    expect(suggestions.strategicRecommendation).toContain('Bắt đầu với Step 2 "Pricing"');
    expect(suggestions.strategicRecommendation).toContain('3 lần gọi AI (1 thất bại)');
  });

  it('names references to no earlier step, choice steps without choices and loops that run once', () => {
    const steps = [
      aStep(1, { name: 'Ideas', systemPrompt: `${longPrompt('ideas')} [[step-3]]` }),
      aStep(2, {
        name: 'Pick',
        systemPrompt: longPrompt('a pick'),
        outputMode: 'multiple_choice',
        choices: ['A'],
        inputSources: ['step-1-id'],
      }),
      aStep(3, {
        name: 'Refine',
        systemPrompt: `${longPrompt('refinement')} [[Pick]]`,
        outputMode: 'loop',
        maxLoopIterations: 1,
      }),
    ];
    const [ideas, pick, refine] = offlineFlowSuggestions(review({ steps })).suggestions.map(
      (s) => s.suggestion,
    );
    expect(ideas).toContain('[[step-3]] không trỏ tới step nào phía trước');
    expect(pick).toContain('ít hơn 2 choices');
    expect(pick).not.toContain('không dùng gì từ các step trước');
    expect(refine).toContain('loop chỉ chạy một lần');
  });

  it('counts facts of a step by its id, so a renamed or reordered step keeps its history', () => {
    const steps = [aStep(1, { id: 'moved', name: 'Now first', systemPrompt: longPrompt('anything') })];
    const [only] = offlineFlowSuggestions(
      review({
        steps,
        edits: [{ stepId: 'moved', stepOrder: 4, before: 'Old text', after: 'New text' }],
        rejectedIdeas: [
          { stepId: 'deleted-step', stepOrder: 1, label: 'Branch 1', content: 'Not about this step' },
        ],
      }),
    ).suggestions;
    expect(only!.suggestion).toContain('bị sửa 1 lần, gần nhất từ "Old text" thành "New text"');
    expect(only!.suggestion).not.toContain('Not about this step');
  });

  it('is the same for the same flow, and says what made it', () => {
    const steps = [aStep(1, { name: 'Only', systemPrompt: '' })];
    const first = offlineFlowSuggestions(review({ steps }));
    expect(offlineFlowSuggestions(review({ steps }))).toEqual(first);
    expect(first.suggestions[0]!.suggestion).toBe(
      '[Offline model] Prompt đang trống: hãy nói step này phải tạo ra gì.',
    );
    expect(first.strategicRecommendation).toMatch(/^\[Offline model\] \*\*Launch plan\*\*: 1 step \(Only\)/);
    expect(first.strategicRecommendation).toContain('Offline model tạo gợi ý này');
  });
});
