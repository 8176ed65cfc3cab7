import { describe, expect, it } from 'vitest';
import { sessionLost } from './session-lost';

describe('sessionLost', () => {
  it('is a connection postgres.js saw close, or a socket error', () => {
    for (const code of ['CONNECTION_CLOSED', 'CONNECTION_DESTROYED', 'CONNECTION_ENDED', 'CONNECT_TIMEOUT'])
      expect(sessionLost(Object.assign(new Error(code), { code })), code).toBe(true);
    expect(sessionLost(Object.assign(new Error('reset'), { code: 'ECONNRESET', syscall: 'read' }))).toBe(
      true,
    );
  });

  it('is not any error of PostgreSQL, FATAL included, nor an error of the client', () => {
    expect(sessionLost(Object.assign(new Error('unique'), { code: '23505', severity: 'ERROR' }))).toBe(false);
    // postgres.js hands this to the first statement of the next session, a live one.
    expect(sessionLost(Object.assign(new Error('terminating'), { code: '57P01', severity: 'FATAL' }))).toBe(
      false,
    );
    expect(sessionLost(Object.assign(new Error('copy'), { code: 'COPY_IN_PROGRESS' }))).toBe(false);
    expect(sessionLost(new Error('plain'))).toBe(false);
    expect(sessionLost('text')).toBe(false);
  });
});
