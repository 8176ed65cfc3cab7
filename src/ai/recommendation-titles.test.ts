import { describe, expect, it } from 'vitest';
import { flowNameInTitle, recommendationTitle } from './recommendation-titles';

describe('recommendation titles', () => {
  it('quote a flow by its own name', () => {
    expect(recommendationTitle('brief', { flow: 'Blog trà' })).toBe('Thêm brief mở đầu cho "Blog trà"');
    expect(recommendationTitle('sharpen', { flow: 'Blog', step: 'Viết' })).toBe(
      'Làm rõ step "Viết" của "Blog"',
    );
    expect(recommendationTitle('template', { steps: ['Research', 'Outline'] })).toBe(
      'Tạo template từ "Research", "Outline"',
    );
  });

  it('do not nest: a flow named by an earlier title is quoted by the name inside it, however deep', () => {
    const once = recommendationTitle('brief', { flow: 'Blog' });
    expect(recommendationTitle('brief', { flow: once })).toBe('Thêm brief mở đầu cho "Blog"');
    const deep = recommendationTitle('split', {
      flow: `Thêm step review cho "${recommendationTitle('sharpen', { flow: once, step: 'Viết' })}"`,
    });
    expect(deep).toBe('Tách "Blog" thành hai flow ngắn hơn');
    expect(recommendationTitle('review', { flow: 'Bắt đầu từ template "Marketing"' })).toBe(
      'Thêm step review cho "Marketing"',
    );
  });

  it('leave any other name as it is, quotes and all', () => {
    expect(flowNameInTitle('Bài "hay" về trà')).toBe('Bài "hay" về trà');
    expect(flowNameInTitle('Thêm brief mở đầu cho Blog')).toBe('Thêm brief mở đầu cho Blog');
    expect(flowNameInTitle('Tạo template từ "A", "B"')).toBe('Tạo template từ "A", "B"');
  });
});
