import { DATE_LOCALE } from './format-date';

/** A count as the app shows it, grouped the Vietnamese way ('12.345'). */
export function formatCount(count: number): string {
  return count.toLocaleString(DATE_LOCALE);
}

/** A short wait: milliseconds under a second ('850 ms'), else seconds to a tenth ('1,2 s'). */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toLocaleString(DATE_LOCALE, { maximumFractionDigits: 1 })} s`;
}
