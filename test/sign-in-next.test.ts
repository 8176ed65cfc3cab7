import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageToGoBackTo } from '../src/api/auth/login-page';
import { createTestApp, type TestApp } from './support/test-app';

const form = (fields: Record<string, string>) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

describe('sign-in goes back to the page asked for', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes only paths of this site', () => {
    expect(pageToGoBackTo('/flows/8f0c?mode=chat')).toBe('/flows/8f0c?mode=chat');
    for (const elsewhere of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      'flows',
      '/api/login?next=/x',
      '/api/logout',
      '/a\nb',
      `/${'a'.repeat(2_001)}`,
      42,
      undefined,
    ]) {
      expect(pageToGoBackTo(elsewhere), String(elsewhere)).toBeNull();
    }
  });

  it('sends a browser opening the API docs signed out to sign-in, and an API call a 401', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/api/login?next=%2Fapi%2Fdocs%2F');
    const call = await t.app.inject({
      method: 'GET',
      url: '/api/flows',
      headers: { accept: 'application/json' },
    });
    expect(call.statusCode).toBe(401);
  });

  it('carries `next` through the page, a refused form and a sign-up, and goes there', async () => {
    const signInPage = await t.app.inject({
      method: 'GET',
      url: '/api/login?next=%2Fflows%2Fabc%3Fmode%3Dchat',
    });
    expect(signInPage.body).toContain('<input type="hidden" name="next" value="/flows/abc?mode=chat">');
    const foreign = await t.app.inject({ method: 'GET', url: '/api/login?next=https%3A%2F%2Fevil.example' });
    expect(foreign.body).not.toContain('name="next"');

    const refused = await t.app.inject({
      url: '/api/auth/login',
      ...form({ email: 'nobody@example.com', password: 'wrong password', next: '/flows/abc' }),
    });
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe('/api/login?error=credentials&next=%2Fflows%2Fabc');

    const signedUp = await t.app.inject({
      url: '/api/auth/register',
      ...form({
        email: 'lan@example.com',
        password: 'correct horse battery',
        firstName: 'Lan',
        lastName: 'Trần',
        next: '/flows/abc?mode=chat',
      }),
    });
    expect(signedUp.statusCode).toBe(303);
    expect(signedUp.headers.location).toBe('/flows/abc?mode=chat');

    const signedIn = await t.app.inject({
      url: '/api/auth/login',
      ...form({ email: 'lan@example.com', password: 'correct horse battery', next: '//evil.example' }),
    });
    expect(signedIn.headers.location).toBe('/');
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/login?next=%2Fsessions',
      headers: { cookie },
    });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/sessions');
  });
});
