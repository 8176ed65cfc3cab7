import { dates } from './strings';

type Moment = string | number | Date;

/** A moment as the app shows it everywhere: time and date in Vietnamese ('07:05:09 22/11/2026'). */
export function formatDateTime(when: Moment): string {
  return new Date(when).toLocaleString(dates.locale);
}

/** Only the hour and minute of a moment ('07:05'), for a message in a conversation. */
export function formatClockTime(when: Moment): string {
  return new Date(when).toLocaleTimeString(dates.locale, { hour: '2-digit', minute: '2-digit' });
}
