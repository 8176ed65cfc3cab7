import { describe, expect, it } from 'vitest';
import { auditCsv } from './audit-trail';

describe('auditCsv', () => {
  it('escapes every cell of the audit file, the actor and the summary among them', () => {
    const csv = auditCsv([
      {
        position: 1,
        at: '2026-01-01T00:00:00.000Z',
        actor: { userId: 'u1', name: '=cmd|" /C calc"!A0' },
        type: 'ResultEdited',
        summary: '@SUM(1)',
        hash: null,
      },
    ]);
    expect(csv).toBe(
      'position,time,actor_id,actor,type,summary,hash\r\n' +
        `1,2026-01-01T00:00:00.000Z,u1,"'=cmd|"" /C calc""!A0",ResultEdited,"'@SUM(1)",\r\n`,
    );
  });
});
