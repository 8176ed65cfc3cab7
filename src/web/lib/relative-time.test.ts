import { describe, expect, it } from 'vitest';
import { relativeTimeOf } from './relative-time';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('relative times in Vietnamese', () => {
  it('tells a past moment in its largest whole unit', () => {
    expect(relativeTimeOf(ago(0), NOW)).toBe('bây giờ');
    expect(relativeTimeOf(ago(30), NOW)).toBe('30 giây trước');
    expect(relativeTimeOf(ago(5 * 60 + 20), NOW)).toBe('5 phút trước');
    expect(relativeTimeOf(ago(3 * 3600), NOW)).toBe('3 giờ trước');
    expect(relativeTimeOf(ago(26 * 3600), NOW)).toBe('Hôm qua');
    expect(relativeTimeOf(ago(3 * 86400), NOW)).toBe('3 ngày trước');
    expect(relativeTimeOf(ago(15 * 86400), NOW)).toBe('2 tuần trước');
    expect(relativeTimeOf(ago(400 * 86400), NOW)).toBe('năm ngoái');
  });

  it('tells a future moment too', () => {
    expect(relativeTimeOf(ago(-2 * 3600), NOW)).toBe('sau 2 giờ nữa');
  });

  it('has nothing to say of a missing or unreadable moment', () => {
    expect(relativeTimeOf(null, NOW)).toBeNull();
    expect(relativeTimeOf(undefined, NOW)).toBeNull();
    expect(relativeTimeOf('', NOW)).toBeNull();
    expect(relativeTimeOf('not a date', NOW)).toBeNull();
  });
});
