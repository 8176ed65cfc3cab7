import { describe, expect, it } from 'vitest';
import { formatClockTime, formatDateTime } from './format-date';

// A moment built from local parts reads the same whatever the machine's time zone.
const moment = new Date(2026, 10, 22, 7, 5, 9);

describe('the shown dates', () => {
  it('tells a moment as time then date, in Vietnamese', () => {
    expect(formatDateTime(moment)).toBe('07:05:09 22/11/2026');
  });

  it('reads the same moment from its ISO text or its milliseconds', () => {
    expect(formatDateTime(moment.toISOString())).toBe('07:05:09 22/11/2026');
    expect(formatDateTime(moment.getTime())).toBe('07:05:09 22/11/2026');
  });

  it('tells only the hour and minute of a message', () => {
    expect(formatClockTime(moment.toISOString())).toBe('07:05');
    expect(formatClockTime(new Date(2026, 10, 22, 23, 59, 59))).toBe('23:59');
  });
});
