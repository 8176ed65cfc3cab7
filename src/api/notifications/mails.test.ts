import { describe, expect, it } from 'vitest';
import { mailTime, renderMail } from './mails';

const review = {
  flowName: 'Bài blog',
  stepName: 'Bản nháp',
  requestedBy: 'An Nguyễn',
  dueAt: '2026-11-28T14:30:00.000Z',
  link: 'https://flows.example.com/flows/f?mode=run',
};

describe('the times mails tell', () => {
  it('are day/month/year and the hour in UTC, saying so', () => {
    expect(mailTime('2026-11-28T14:30:00.000Z')).toBe('28/11/2026 14:30 (UTC)');
    expect(mailTime('2027-01-05T03:07:59.999Z')).toBe('05/01/2027 03:07 (UTC)');
    expect(mailTime('-')).toBe('-');
  });

  it('are written so in review mails and invitations, never as ISO', () => {
    const mails = [
      renderMail({ to: 'a@example.com', template: 'reviewRequested', values: { ...review, note: null } }),
      renderMail({ to: 'a@example.com', template: 'reviewReminder', values: review }),
      renderMail({
        to: 'a@example.com',
        template: 'invitation',
        values: {
          workspaceName: 'Nhóm',
          role: 'reviewer',
          acceptUrl: 'https://flows.example.com/invitations/x',
          expiresAt: '2026-12-05T09:00:00.000Z',
        },
      }),
    ];
    for (const mail of mails) {
      expect(mail.text).not.toMatch(/\d{4}-\d\d-\d\dT/);
      expect(mail.html).not.toMatch(/\d{4}-\d\d-\d\dT/);
    }
    expect(mails[0]!.text).toContain('Hạn / Due: 28/11/2026 14:30 (UTC)');
    expect(mails[2]!.text).toContain('có hạn đến 05/12/2026 09:00 (UTC)');
  });
});
