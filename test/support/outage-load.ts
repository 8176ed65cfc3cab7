import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { LiveTopic } from '../../src/domain/live-updates';
import { ExecutionSocket } from '../../src/web/lib/execution-socket';

/**
 * Clients of the API as browsers are, for the tests that take the database away under load: each signed in
 * as a user of its own, reading and writing one flow and one execution of its own, each write with an
 * Idempotency-Key of its own. Every answer is kept, to be judged after.
 */

/** One answer a client got: its status (or how the request failed), its type and its parsed body. */
export interface Answer {
  /** When it was sent and when answered (Date.now()). */
  sentAt: number;
  at: number;
  method: string;
  route: string;
  /** The Idempotency-Key it carried: a write. */
  key: string | null;
  status: number | 'connection error';
  contentType: string;
  /** Its Retry-After header, if any. */
  retryAfter: string | null;
  body: unknown;
  /** Which client of keepClientsBusy sent it. */
  client?: number;
}

/**
 * How long a client waits for an answer before it gives up on the request: far longer than any answer of
 * these tests takes (an outage lasts seconds), so a request left unanswered is recorded as such.
 */
const ANSWER_WITHIN_MS = 30_000;

/** Sends one request as the signed-in `cookie`, from the page at `base` (the server checks Origin). */
export async function send(
  base: string,
  cookie: string,
  method: string,
  route: string,
  body?: unknown,
  key: string | null = null,
): Promise<Answer> {
  const sentAt = Date.now();
  try {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: {
        origin: base,
        cookie,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key === null ? {} : { 'idempotency-key': key }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    const contentType = response.headers.get('content-type') ?? '';
    const text = await response.text();
    let parsed: unknown = text;
    if (contentType.includes('json') && text) parsed = JSON.parse(text);
    const retryAfter = response.headers.get('retry-after');
    return {
      sentAt,
      at: Date.now(),
      method,
      route,
      key,
      status: response.status,
      contentType,
      retryAfter,
      body: parsed,
    };
  } catch (error) {
    return {
      sentAt,
      at: Date.now(),
      method,
      route,
      key,
      status: 'connection error',
      contentType: '',
      retryAfter: null,
      body: (error as Error).message,
    };
  }
}

let addresses = 0;

/**
 * A new account signed up at `base`, from a client address of its own (X-Forwarded-For, believed on loopback
 * behind nginx), so the sign-up limit per address never counts the clients together. Its session cookie.
 */
export async function signUp(base: string, name: string): Promise<string> {
  addresses++;
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${addresses}` },
    body: JSON.stringify({
      email: `${name.toLowerCase()}-${randomUUID()}@example.com`,
      password: 'correct horse battery',
      firstName: name,
      lastName: 'Nguyen',
    }),
  });
  if (response.status !== 201)
    throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** A client's own work: its flow of one step, and an execution of it whose step it runs again and again. */
export interface Work {
  cookie: string;
  flowId: string;
  stepId: string;
  executionId: string;
}

/** A user, a flow and an execution, made at `base` while the database is up. */
export async function prepareWork(base: string, name: string): Promise<Work> {
  const cookie = await signUp(base, name);
  const created = async (route: string, body: unknown) => {
    const answer = await send(base, cookie, 'POST', route, body, randomUUID());
    if (answer.status !== 201)
      throw new Error(`${route} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body as { id: string };
  };
  const flow = await created('/api/flows', { name: `${name}'s flow`, description: 'Kept going' });
  const step = await created('/api/steps', {
    flowId: flow.id,
    order: 1,
    name: 'Draft',
    systemPrompt: 'Draft it',
  });
  const execution = await created(`/api/flows/${flow.id}/execute`, {});
  return { cookie, flowId: flow.id, stepId: step.id, executionId: execution.id };
}

/**
 * Whether an answer is the server's (or nginx's) "unavailable for a moment": 503, a problem
 * (`application/problem+json` with type, title, status and detail) saying `retryable`, with Retry-After.
 */
export function isUnavailableProblem(answer: Answer): boolean {
  if (answer.status !== 503 || !answer.contentType.startsWith('application/problem+json')) return false;
  if (answer.retryAfter === null) return false;
  const body = answer.body as Record<string, unknown> | null;
  return (
    body !== null &&
    typeof body === 'object' &&
    typeof body.type === 'string' &&
    typeof body.title === 'string' &&
    typeof body.detail === 'string' &&
    body.status === 503 &&
    body.retryable === true
  );
}

export const isSuccess = (answer: Answer) => typeof answer.status === 'number' && answer.status < 300;

/** Seconds a problem asks to wait before sending again, capped so a client keeps meeting the outage. */
const MOST_WAIT_MS = 250;

/**
 * Every client reading and writing its own work in a loop, one request at a time, until stopped: reads of
 * its execution and flow, edits of its step (a flow command) and runs of it (an execution command, answered
 * by the offline model), each write with a new Idempotency-Key. After an unavailable answer a client waits as
 * it is told (Retry-After), up to a quarter second, as the web app would before sending again.
 */
export function keepClientsBusy(base: (index: number) => string, clients: Work[]) {
  const answers: Answer[] = [];
  const pending = new Map<number, { method: string; route: string; since: number }>();
  let busy = true;
  const loop = async (work: Work, index: number) => {
    const { cookie, flowId, stepId, executionId } = work;
    const requests: [string, string, unknown?][] = [
      ['GET', `/api/executions/${executionId}`],
      ['PUT', `/api/steps/${stepId}`, { systemPrompt: 'Draft it, take {n}' }],
      ['POST', `/api/executions/${executionId}/steps/${stepId}/execute`, {}],
      ['GET', `/api/flows/${flowId}`],
    ];
    for (let n = 1; busy; n++) {
      for (const [method, route, body] of requests) {
        if (!busy) break;
        const filled =
          body === undefined ? undefined : JSON.parse(JSON.stringify(body).replace('{n}', String(n)));
        pending.set(index, { method, route, since: Date.now() });
        const answer = await send(
          base(index),
          cookie,
          method,
          route,
          filled,
          method === 'GET' ? null : randomUUID(),
        );
        pending.delete(index);
        answers.push({ ...answer, client: index });
        if (answer.status === 503) {
          const asked = Number(answer.retryAfter ?? 2) * 1000;
          await new Promise((resolve) => setTimeout(resolve, Math.min(asked, MOST_WAIT_MS)));
        }
      }
    }
  };
  const running = Promise.all(clients.map(loop));
  return {
    answers,
    /** The requests under way, by client. */
    pending: () => [...pending.entries()],
    /** Stops every client after its request under way, and waits for them. */
    stop: async () => {
      busy = false;
      await running;
    },
  };
}

/** An event as a socket pushed it or as the log has it. */
export interface StreamEvent {
  position: number;
  type: string;
  data: unknown;
}

/**
 * A websocket client following an execution as the web app does (src/web/lib/execution-socket.ts): it
 * reconnects when closed and subscribes again after the last event it has.
 */
export function follow(base: () => string, executionId: string, cookie: string) {
  class SignedInWebSocket extends WebSocket {
    constructor(url: string) {
      super(url, { headers: { cookie }, origin: base() });
    }
  }
  const socket = new ExecutionSocket(
    () => `${base().replace('http:', 'ws:')}/api/ws`,
    SignedInWebSocket as unknown as { new (url: string): globalThis.WebSocket },
  );
  const events: StreamEvent[] = [];
  let connections = 0;
  let upToDate = false;
  socket.connected$.subscribe((connected) => {
    if (connected) connections++;
  });
  const topic: LiveTopic = { executionId };
  const unwatch = socket.watch(topic, {
    after: () => events.at(-1)?.position ?? 0,
    onMessage: (message) => {
      if (message.type === 'up-to-date') upToDate = true;
      if (message.type === 'event')
        events.push({ position: message.position, type: message.event.type, data: message.event.data });
    },
  });
  return { events, connections: () => connections, upToDate: () => upToDate, unwatch };
}
