import { describe, expect, it } from 'vitest';
import { QueueOutage } from './queue-outage';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
/** pg-boss's report of a worker's failed poll: the error's fields copied, its queue and worker added. */
const pollFailed = { message: 'Connection terminated unexpectedly (Queue: mail, Worker: w1)', queue: 'mail' };

describe("the job queue's outage log", () => {
  it('warns once, in one line, while the database is away, and tells once when it answers again', () => {
    const outage = new QueueOutage();
    expect(outage.answered()).toBeNull();
    expect(outage.failed(refused)).toEqual({
      level: 'warn',
      message:
        'The job queue cannot reach the database (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432); it keeps trying',
    });
    for (let poll = 0; poll < 20; poll++) expect(outage.failed(poll % 2 ? refused : pollFailed)).toBeNull();
    expect(outage.answered()).toEqual({ level: 'info', message: 'The job queue reaches the database again' });
    expect(outage.answered()).toBeNull();
    // A second outage is told again.
    expect(outage.failed(pollFailed)).toMatchObject({ level: 'warn' });
    expect(outage.failed(pollFailed)).toBeNull();
  });

  it('logs every other error whole, each time, outage or not', () => {
    const outage = new QueueOutage();
    const broken = Object.assign(new Error('relation "pgboss.job" does not exist'), { code: '42P01' });
    expect(outage.failed(broken)).toEqual({ level: 'error', error: broken, message: 'job queue' });
    expect(outage.failed(refused)).toMatchObject({ level: 'warn' });
    expect(outage.failed(broken)).toEqual({ level: 'error', error: broken, message: 'job queue' });
  });

  it('keeps the line short, whatever the message', () => {
    const long = Object.assign(new Error(`${'x'.repeat(500)}\n    at somewhere (file.js:1:1)`), {
      code: '57P01',
    });
    const line = new QueueOutage().failed(long);
    expect(line?.message).not.toContain('\n');
    expect(line?.message.length).toBeLessThan(240);
  });
});
