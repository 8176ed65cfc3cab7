import { describe, expect, it } from 'vitest';
import { AppendTransactionLost } from '../../eventstore';
import { isDatabaseAway, mayHaveBeenStored } from './errors';

const withCode = (code: string) => Object.assign(new Error(code), { code });

describe('isDatabaseAway', () => {
  it('is the database restarting, starting up, unreachable, or with no connection to give', () => {
    for (const code of [
      '57P01',
      '57P02',
      '57P03',
      '53300',
      '08006',
      '08001',
      'ECONNREFUSED',
      'CONNECTION_CLOSED',
    ])
      expect(isDatabaseAway(withCode(code)), code).toBe(true);
  });

  it('is an append whose transaction a lost connection ended: what it stored is unknown, so it is sent again', () => {
    expect(isDatabaseAway(new AppendTransactionLost())).toBe(true);
  });

  it("is the job queue's driver losing its connection, which it says without a code", () => {
    for (const message of [
      'Connection terminated unexpectedly (Queue: mail, Worker: 1)',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
    ])
      expect(isDatabaseAway(new Error(message)), message).toBe(true);
    expect(isDatabaseAway({ message: 'Connection terminated unexpectedly', queue: 'mail' })).toBe(true);
  });

  it('is not a statement the database refused: a broken rule, a conflict, a full disk, a cancel', () => {
    for (const code of ['23505', '40001', '40P01', '53100', '57014', '42P01'])
      expect(isDatabaseAway(withCode(code)), code).toBe(false);
    expect(isDatabaseAway(new Error('no code'))).toBe(false);
    expect(isDatabaseAway(null)).toBe(false);
  });
});

describe('mayHaveBeenStored', () => {
  it('is a write whose connection went away after it was sent: its commit may have been made', () => {
    for (const code of ['CONNECTION_CLOSED', 'ECONNRESET', 'EPIPE', '57P01', '57P02', '08006'])
      expect(mayHaveBeenStored(withCode(code)), code).toBe(true);
    expect(mayHaveBeenStored(new AppendTransactionLost())).toBe(true);
  });

  it('is not a write that never had a connection, nor one the database refused', () => {
    // Refused, timed out connecting, the database starting up, too many clients; a unique violation.
    for (const code of ['ECONNREFUSED', 'CONNECT_TIMEOUT', '57P03', '53300', '23505'])
      expect(mayHaveBeenStored(withCode(code)), code).toBe(false);
    expect(mayHaveBeenStored(new Error('refused'))).toBe(false);
  });
});
