/** The app's dates and times are told the Vietnamese way. */
export const DATE_LOCALE = 'vi-VN';

type Moment = string | number | Date;

/** A moment as the app shows it everywhere: time and date in Vietnamese ('07:05:09 22/11/2026'). */
export function formatDateTime(when: Moment): string {
  return new Date(when).toLocaleString(DATE_LOCALE);
}

/** Only the hour and minute of a moment ('07:05'), for a message in a conversation. */
export function formatClockTime(when: Moment): string {
  return new Date(when).toLocaleTimeString(DATE_LOCALE, { hour: '2-digit', minute: '2-digit' });
}
