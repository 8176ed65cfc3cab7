import { expect, vi } from 'vitest';
import type { ExecuteAllRecord } from '../../src/domain/master-mode/master-session';
import type { Client } from './test-app';

/** How a test reaches the API: the answer's status and parsed body. */
// biome-ignore lint/suspicious/noExplicitAny: answers are read as JSON of any shape
export type Call = (method: 'GET' | 'POST', url: string) => Promise<{ status: number; body: any }>;

/** A signed-in test client as a Call. */
export const callOf =
  (client: Client): Call =>
  async (method, url) => {
    const response = method === 'GET' ? await client.get(url) : await client.post(url);
    return { status: response.statusCode, body: response.json() };
  };

/** Waits until the Execute All has ended, by its record (its end is written with its last event). */
export async function executeAllEnded(
  call: Call,
  sessionId: string,
  runAllId: string,
): Promise<ExecuteAllRecord> {
  const url = `/api/master-mode/session/${sessionId}/execute-all/${runAllId}`;
  // vi.waitFor rather than expect.poll: it also serves a suite's set-up.
  return vi.waitFor(
    async () => {
      const answer = await call('GET', url);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const record: ExecuteAllRecord = answer.body;
      expect(record.outcome, 'the Execute All is still running').not.toBeNull();
      return record;
    },
    { timeout: 120_000, interval: 50 },
  );
}

/** Starts an Execute All, which must be accepted (202), and answers its record once it has ended. */
export async function executeAllToTheEnd(call: Call, sessionId: string): Promise<ExecuteAllRecord> {
  const started = await call('POST', `/api/master-mode/execute-all/${sessionId}`);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return executeAllEnded(call, sessionId, started.body.runAllId);
}
