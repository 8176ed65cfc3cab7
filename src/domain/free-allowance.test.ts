import { describe, expect, it } from 'vitest';
import { allowanceUsedUpMessage, remainingSteps, UNLIMITED_STEPS, usageLevel } from './free-allowance';

describe('free allowance', () => {
  it('counts down from the allowance without an own key, never below zero', () => {
    expect(remainingSteps({ hasOwnKey: false, usedSteps: 0, allowance: 15 })).toBe(15);
    expect(remainingSteps({ hasOwnKey: false, usedSteps: 14, allowance: 15 })).toBe(1);
    expect(remainingSteps({ hasOwnKey: false, usedSteps: 15, allowance: 15 })).toBe(0);
    expect(remainingSteps({ hasOwnKey: false, usedSteps: 20, allowance: 15 })).toBe(0);
  });

  it('is unlimited with an own active key, whatever was used before', () => {
    expect(remainingSteps({ hasOwnKey: true, usedSteps: 99, allowance: 15 })).toBe(UNLIMITED_STEPS);
  });

  it('shows unlimited usage green, more than 5 left yellow, 5 or fewer red', () => {
    expect(usageLevel(UNLIMITED_STEPS)).toBe('unlimited');
    expect(usageLevel(6)).toBe('plenty');
    expect(usageLevel(5)).toBe('low');
    expect(usageLevel(0)).toBe('low');
  });

  it('names the allowance in the refusal', () => {
    expect(allowanceUsedUpMessage(15)).toContain('15 steps miễn phí');
    expect(allowanceUsedUpMessage(15)).toContain('API keys page');
  });
});
