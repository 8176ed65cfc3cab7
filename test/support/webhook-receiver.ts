import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver that checks each delivery's signature; it answers 500 to the first (unless `failFirst` is
 * false) and 200 after.
 */
export async function receiver(secret: () => string, options: { failFirst?: boolean } = {}) {
  const { failFirst = true } = options;
  const deliveries: { body: string; signature: string; valid: boolean }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(request.headers['x-workbench-signature'] ?? '');
      const { t, v1 } = Object.fromEntries(
        signature.split(',').map((part) => part.split('=') as [string, string]),
      );
      const expected = createHmac('sha256', secret()).update(`${t}.${body}`).digest();
      const given = Buffer.from(v1 ?? '', 'hex');
      const valid =
        given.length === expected.length &&
        timingSafeEqual(given, expected) &&
        Math.abs(Date.now() / 1000 - Number(t)) < 300;
      deliveries.push({ body, signature, valid });
      const refuse = failFirst && deliveries.length === 1;
      response.statusCode = refuse ? 500 : 200;
      response.end(refuse ? 'not now' : 'ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    deliveries,
    host: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
