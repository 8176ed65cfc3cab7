import { dates } from './strings';

/** Largest unit first: a time is told in the largest unit it has at least one of. */
const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 60 * 60],
  ['month', 30 * 24 * 60 * 60],
  ['week', 7 * 24 * 60 * 60],
  ['day', 24 * 60 * 60],
  ['hour', 60 * 60],
  ['minute', 60],
  ['second', 1],
];

let format: Intl.RelativeTimeFormat | undefined;

/**
 * How long ago (or from now) a moment is, in Vietnamese words ('5 phút trước', 'Hôm qua'); null when
 * there is no readable moment, so the caller can say it is unknown.
 */
export function relativeTimeOf(when: string | null | undefined, now: number): string | null {
  const at = when ? Date.parse(when) : Number.NaN;
  if (Number.isNaN(at)) return null;
  format ??= new Intl.RelativeTimeFormat(dates.locale, { numeric: 'auto' });
  const seconds = Math.round((at - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      return format.format(Math.trunc(seconds / size), unit);
    }
  }
  return null;
}
