import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderMail } from './mails';
import { allowedWebhookUrl, signatureOf } from './webhook-delivery';

describe('a webhook delivery', () => {
  it('is signed with t and the HMAC-SHA256 of "<t>.<body>"', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const body = '{"id":"1","type":"execution.completed"}';
    const t = Math.floor(at.getTime() / 1000);
    const v1 = createHmac('sha256', 'secret').update(`${t}.${body}`).digest('hex');
    expect(signatureOf('secret', body, at)).toBe(`t=${t},v1=${v1}`);
  });

  it('goes only to a host WEBHOOK_HOSTS lists, over http or https, without a user name', () => {
    const hosts = ['hooks.example.com', '127.0.0.1:4000'];
    expect(allowedWebhookUrl('https://hooks.example.com/in', hosts).href).toBe(
      'https://hooks.example.com/in',
    );
    expect(allowedWebhookUrl('http://127.0.0.1:4000/in', hosts).host).toBe('127.0.0.1:4000');
    expect(() => allowedWebhookUrl('http://127.0.0.1:4001/in', hosts)).toThrow(/WEBHOOK_HOSTS/);
    expect(() => allowedWebhookUrl('https://hooks.example.com:8443/in', hosts)).toThrow(/WEBHOOK_HOSTS/);
    expect(() => allowedWebhookUrl('ftp://hooks.example.com/in', hosts)).toThrow(/http/);
    expect(() => allowedWebhookUrl('https://a:b@hooks.example.com/in', hosts)).toThrow(/user name/);
    expect(() => allowedWebhookUrl('https://hooks.example.com/in', [])).toThrow(/WEBHOOK_HOSTS trống/);
  });
});

describe('the invitation mail', () => {
  it('has the link in its text and HTML bodies, the HTML escaped', () => {
    const mail = renderMail({
      to: 'an@example.com',
      template: 'invitation',
      values: {
        workspaceName: 'Trà <&>',
        role: 'editor',
        acceptUrl: 'https://app.example.com/invitations/abc',
        expiresAt: '2026-01-09T00:00:00.000Z',
      },
    });
    expect(mail.subject).toContain('Trà <&>');
    expect(mail.text).toContain('https://app.example.com/invitations/abc');
    expect(mail.html).toContain('href="https://app.example.com/invitations/abc"');
    expect(mail.html).toContain('Trà &lt;&amp;&gt;');
  });
});
