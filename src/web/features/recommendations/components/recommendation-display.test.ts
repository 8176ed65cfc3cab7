import { describe, expect, it } from 'vitest';
import {
  averageConfidence,
  complexityPercent,
  formatRating,
  inTab,
  isActive,
  isShown,
  priorityStyle,
} from './recommendation-display';

describe('recommendation display rules', () => {
  it('fills the complexity bar 25 for low, 60 for medium, 90 otherwise', () => {
    expect(complexityPercent('low')).toBe(25);
    expect(complexityPercent('medium')).toBe(60);
    expect(complexityPercent('high')).toBe(90);
    expect(complexityPercent('unheard of')).toBe(90);
  });

  it('styles urgent and high as destructive, medium as default, low as secondary', () => {
    expect(priorityStyle('urgent')).toBe('destructive');
    expect(priorityStyle('high')).toBe('destructive');
    expect(priorityStyle('medium')).toBe('default');
    expect(priorityStyle('low')).toBe('secondary');
  });

  it('shows an average rating with one decimal', () => {
    expect(formatRating(4)).toBe('4.0');
    expect(formatRating(10 / 3)).toBe('3.3');
    expect(formatRating(4.55)).toMatch(/^4\.[56]$/);
  });

  it('averages confidence as a rounded percent, 0 without recommendations', () => {
    expect(averageConfidence([])).toBe(0);
    expect(averageConfidence([{ confidence: 70 }, { confidence: 85 }])).toBe(78);
    expect(averageConfidence([{ confidence: 61 }, { confidence: 62 }, { confidence: 62 }])).toBe(62);
  });

  it('hides dismissed recommendations and counts implemented ones as no longer active', () => {
    expect(isShown({ status: 'pending' })).toBe(true);
    expect(isShown({ status: 'dismissed' })).toBe(false);
    expect(isActive({ status: 'accepted' })).toBe(true);
    expect(isActive({ status: 'implemented' })).toBe(false);
    expect(isActive({ status: 'dismissed' })).toBe(false);
  });

  it('lists all recommendations in the All tab and those of its type in the others', () => {
    const list = [
      { id: 1, recommendationType: 'template' as const },
      { id: 2, recommendationType: 'automation' as const },
      { id: 3, recommendationType: 'template' as const },
    ];
    expect(inTab(list, 'all').map((r) => r.id)).toEqual([1, 2, 3]);
    expect(inTab(list, 'template').map((r) => r.id)).toEqual([1, 3]);
    expect(inTab(list, 'enhancement')).toEqual([]);
  });
});
