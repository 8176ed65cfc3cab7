import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/** A raw connection: what the server sent on it, and a promise of its close. */
async function open(port: number) {
  const socket = connect({ port, host: '127.0.0.1' });
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return { socket, closed, received: () => received };
}

describe('requests that do not arrive in time, and clients holding many connections', () => {
  let t: TestApp;
  let port: number;
  let releaseSlow: () => void = () => {};
  const slowReleased = new Promise<void>((resolve) => {
    releaseSlow = resolve;
  });

  beforeAll(async () => {
    t = await createTestApp({ requestTimeoutMs: 1_000, connectionsPerClient: 4 });
    // Stands for a model call: a request received whole, answered only when the test says.
    t.app.get('/slow-answer', async () => {
      await slowReleased;
      return { answered: true };
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    releaseSlow();
    await t?.close();
  });

  it('answers 408 and closes a request whose body stops coming, while a slow answer to a whole request goes on', async () => {
    const slow = await open(port);
    slow.socket.write('GET /slow-answer HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');

    const halfSent = await open(port);
    halfSent.socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"email":',
    );
    await halfSent.closed;
    expect(halfSent.received()).toMatch(/^HTTP\/1\.1 408 /);
    // A problem like every other error.
    expect(halfSent.received()).toMatch(/application\/problem\+json[\s\S]*"code":"request_timeout"/);

    // The check that closed the half-sent request has passed the slow one by: it was received whole.
    expect(slow.received()).toBe('');
    releaseSlow();
    await expect.poll(slow.received).toMatch(/^HTTP\/1\.1 200 [\s\S]*\{"answered":true\}/);
    slow.socket.destroy();
  });

  it('closes a request whose headers never end', async () => {
    const headers = await open(port);
    headers.socket.write('GET /api/flows HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await headers.closed;
    expect(headers.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a client’s connection past its bound at once, and takes one again when another has closed', async () => {
    const held = await Promise.all([open(port), open(port), open(port), open(port)]);
    const extra = await open(port);
    await extra.closed;
    expect(extra.received()).toBe('');

    held[0]!.socket.destroy();
    await held[0]!.closed;
    // The server counts the closed one off when it sees its close: a new connection is taken from then on.
    await expect
      .poll(async () => {
        const again = await open(port);
        again.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
        await again.closed;
        return again.received();
      })
      .toMatch(/^HTTP\/1\.1 200 /);
    for (const connection of held) connection.socket.destroy();
  });
});
