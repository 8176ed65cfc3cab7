import { isDatabaseAway } from '../http/errors';

/** What one report of the job queue's is logged as: a short line at a level, the error itself, or nothing. */
export type QueueLogLine =
  | { level: 'warn' | 'info'; message: string }
  | { level: 'error'; error: unknown; message: string }
  | null;

/** The most of an error's message a warning shows. */
const MESSAGE_CHARS = 160;

/**
 * Whether the job queue has lost the database, from what it reports: while the database is away, each
 * connection its pool loses and each of its upkeeps (timers, supervision: every 30 s to 2 minutes) that fails
 * is an error, for as long as it lasts. The first such error is a warning of one line; the rest are the same
 * outage, said already; the first query answered after it (a worker's poll, within QUEUE_POLL_SECONDS) is
 * logged once, at info. Any other error is logged whole, each time.
 */
export class QueueOutage {
  private away = false;

  /** The queue reported an error. */
  failed(error: unknown): QueueLogLine {
    if (!isDatabaseAway(error)) return { level: 'error', error, message: 'job queue' };
    if (this.away) return null;
    this.away = true;
    return {
      level: 'warn',
      message: `The job queue cannot reach the database (${summaryOf(error)}); it keeps trying`,
    };
  }

  /** The database answered one of the queue's queries. */
  answered(): QueueLogLine {
    if (!this.away) return null;
    this.away = false;
    return { level: 'info', message: 'The job queue reaches the database again' };
  }
}

/** An error's code and the first line of its message, cut short. */
function summaryOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const firstLine = typeof message === 'string' ? (message.split('\n')[0] ?? '') : '';
  const text = [typeof code === 'string' ? code : '', firstLine].filter(Boolean).join(': ');
  return text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS - 1)}…` : text;
}
