import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration } from './format-number';

describe('the shown numbers', () => {
  it('groups a count the Vietnamese way', () => {
    expect(formatCount(7)).toBe('7');
    expect(formatCount(12345)).toBe('12.345');
  });

  it('tells a wait under a second in milliseconds, a longer one in seconds to a tenth', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1000)).toBe('1 s');
    expect(formatDuration(1234)).toBe('1,2 s');
    expect(formatDuration(61_250)).toBe('61,3 s');
  });
});
