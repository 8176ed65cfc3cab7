import { describe, expect, it } from 'vitest';
import { recommendationKey, withoutRepeats } from './workflow-recommendations';

const rec = (title: string, baseFlowId: string | null = 'f1', id = title) => ({ id, title, baseFlowId });

describe('recommendations without repeats', () => {
  it('keeps the first of the same recommendation made twice, in order', () => {
    const drafts = [
      rec('Làm rõ step "Draft" của "Blog"', 'f1', 'a'),
      rec('Tách "Blog" thành hai flow ngắn hơn', 'f1', 'b'),
      rec('Làm rõ step "Draft" của "Blog"', 'f1', 'c'),
    ];
    expect(withoutRepeats(drafts).map((d) => d.id)).toEqual(['a', 'b']);
  });

  it('takes titles as a person reads them: case, spacing and Unicode form aside', () => {
    const composed = 'Thêm brief mở đầu cho "Trà"';
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    const drafts = [rec(composed, 'f1', 'a'), rec(`  ${decomposed.toUpperCase()} `, 'f1', 'b')];
    expect(recommendationKey(drafts[0]!)).toBe(recommendationKey(drafts[1]!));
    expect(withoutRepeats(drafts).map((d) => d.id)).toEqual(['a']);
  });

  it('keeps the same title for another flow, or for a new workflow, apart', () => {
    const drafts = [rec('Review', 'f1', 'a'), rec('Review', 'f2', 'b'), rec('Review', null, 'c')];
    expect(withoutRepeats(drafts).map((d) => d.id)).toEqual(['a', 'b', 'c']);
  });

  it('leaves out one already listed (kept because the user acted on it)', () => {
    const listed = [rec('Tạo template từ "Research"', 'f1'), rec('Bắt đầu từ template "Blog"', null)];
    const drafts = [
      rec('Tạo template từ "Research"', 'f1', 'a'),
      rec('Bắt đầu từ template "Blog"', null, 'b'),
      rec('Tạo template từ "Research"', 'f2', 'c'),
    ];
    expect(withoutRepeats(drafts, listed).map((d) => d.id)).toEqual(['c']);
    expect(withoutRepeats([], listed)).toEqual([]);
  });
});
