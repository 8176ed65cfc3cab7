import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** Whether a delivery verifies with `secret` by the Standard Webhooks package's own check. */
export function verifies(secret: string, body: string, headers: IncomingHttpHeaders): boolean {
  try {
    new Webhook(secret).verify(body, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** The deprecated X-Workbench-Signature's check, keyed with the secret's bytes (the base64 after whsec_). */
export function legacyVerifies(secret: string, body: string, header: string): boolean {
  const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${t}.${body}`).digest();
  const given = Buffer.from(v1 ?? '', 'hex');
  return (
    given.length === expected.length &&
    timingSafeEqual(given, expected) &&
    Math.abs(Date.now() / 1000 - Number(t)) < 300
  );
}

export interface ReceivedDelivery {
  body: string;
  headers: IncomingHttpHeaders;
  /** Verified with the secret the receiver holds (Standard Webhooks). */
  valid: boolean;
}

/**
 * A webhook receiver on 127.0.0.1 that verifies each delivery with the standardwebhooks package; it answers 500
 * to the first (unless `failFirst` is false) and 200 after, or `status()` when given.
 */
export async function receiver(
  secret: () => string,
  options: { failFirst?: boolean; status?: () => number } = {},
) {
  const { failFirst = true } = options;
  const deliveries: ReceivedDelivery[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const valid = secret() !== '' && verifies(secret(), body, request.headers);
      deliveries.push({ body, headers: request.headers, valid });
      const refuse = failFirst && deliveries.length === 1;
      response.statusCode = options.status ? options.status() : refuse ? 500 : 200;
      response.end(response.statusCode >= 300 ? 'not now' : 'ok');
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
