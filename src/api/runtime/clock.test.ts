import { describe, expect, it } from 'vitest';
import { CLOCK_SKEW_LIMIT_MS, clockSkewWarning, isClockSkewed, skewOf } from './clock';

describe('clock skew', () => {
  it("is the database's time against the middle of the round trip", () => {
    expect(skewOf(1_000, 1_200, 1_100)).toBe(0);
    expect(skewOf(1_000, 1_200, 1_100 - 90_000)).toBe(90_000);
    expect(skewOf(1_000, 1_200, 1_100 + 5_000)).toBe(-5_000);
  });

  it('is said past a minute either way', () => {
    expect(isClockSkewed(CLOCK_SKEW_LIMIT_MS)).toBe(false);
    expect(isClockSkewed(-CLOCK_SKEW_LIMIT_MS)).toBe(false);
    expect(isClockSkewed(CLOCK_SKEW_LIMIT_MS + 1)).toBe(true);
    expect(isClockSkewed(-CLOCK_SKEW_LIMIT_MS - 1)).toBe(true);
    expect(clockSkewWarning(-90_000)).toMatch(/clock is 90 s behind the database's/);
  });
});
