import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { renderMail } from './mails';
import {
  allowedWebhookUrl,
  deliveryHeaders,
  newWebhookSecret,
  secretBytes,
  signatureOf,
  standardSecret,
} from './webhook-delivery';

describe('a webhook delivery', () => {
  it('is signed as Standard Webhooks do, and the standardwebhooks package verifies it', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = '{"type":"webhook.test","timestamp":"2026-01-02T03:04:05.000Z","data":{}}';
    const headers = deliveryHeaders({ id: 'msg_1', type: 'webhook.test', secrets: [secret] }, body);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('is signed with each secret given, separated by a space: the new one and the one before it', () => {
    const [current, before] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{}';
    const headers = deliveryHeaders({ id: 'msg_2', type: 'webhook.test', secrets: [current, before] }, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual({});
    expect(new Webhook(before).verify(body, headers)).toEqual({});
  });

  it('keeps a secret made before (64 hex characters) as its bytes: whsec_ and their base64', () => {
    const old = 'ab'.repeat(32);
    expect(standardSecret(old)).toBe(`whsec_${Buffer.from(old).toString('base64')}`);
    expect(secretBytes(old).toString('utf8')).toBe(old);
    const body = '{}';
    const headers = deliveryHeaders({ id: 'msg_3', type: 'webhook.test', secrets: [old] }, body);
    expect(new Webhook(standardSecret(old)).verify(body, headers)).toEqual({});
  });

  it('keeps the deprecated X-Workbench-Signature: t and the hex HMAC-SHA256 of "<t>.<body>", keyed with the secret\'s bytes', () => {
    const at = new Date('2026-01-02T03:04:05Z');
    const body = '{"type":"execution.completed"}';
    const t = Math.floor(at.getTime() / 1000);
    // A secret made before: its text is the key, as it always was.
    const old = 'cd'.repeat(32);
    const v1 = createHmac('sha256', old).update(`${t}.${body}`).digest('hex');
    expect(signatureOf(old, body, at)).toBe(`t=${t},v1=${v1}`);
    const secret = newWebhookSecret();
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    expect(signatureOf(secret, body, at)).toBe(
      `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`,
    );
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
