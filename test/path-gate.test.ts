import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from './support/test-app';

/** A signed-out request's answer status, its path sent exactly as written (no normalisation by a client). */
async function statusOf(t: TestApp, url: string) {
  return (await t.app.inject({ method: 'GET', url })).statusCode;
}

/**
 * The router decodes percent-escapes before it matches a route, so the sign-in gate must decide on the same
 * path: `/%61pi/docs` is `/api/docs`.
 */
describe('the sign-in gate decides on the path the router matched', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    '/api/docs',
    '/%61pi/docs',
    '/%61%70%69/docs/',
    '/api/%66lows',
    '/%61pi/flows',
    '/%61pi/user/api-keys',
  ])('refuses %s signed out', async (url) => {
    expect(await statusOf(t, url)).toBe(401);
  });

  it('still serves the web app’s own pages signed out, and answers an unknown API path 401, not the page', async () => {
    expect(await statusOf(t, '/api-keys')).not.toBe(401);
    expect(await statusOf(t, '/%61pi/no-such-call')).toBe(401);
  });

  it('opens no websocket signed out through an escaped path', async () => {
    const socket = new WebSocket(`${base.replace('http', 'ws')}/%61pi/ws`);
    const status = await new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
      socket.once('error', () => resolve(-1));
    });
    socket.terminate();
    expect(status).toBe(401);
  });
});
