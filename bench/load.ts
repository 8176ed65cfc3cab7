import WebSocket from 'ws';

// The loads the bench puts on a server (or on nginx in front of several), shared so the figures compare.

export type Row = { figure: string; value: string; target: string; met: boolean | null };

export function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
export const round = (n: number, digits = 1) => Number(n.toFixed(digits));
/** The middle value (of three rounds' figures: one noisy round cannot move it). */
export const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A step run asks for the short answer (its results and where the execution stands), as the web app does:
 * the execution itself reaches a client through its pushed events.
 */
export const STEP_RUN_HEADERS = { prefer: 'return=minimal' };

export async function call(
  base: string,
  cookie: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { cookie, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Registers the bench user; its session cookie. */
export async function signUp(base: string) {
  const register = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'bench@example.com',
      password: 'bench-password',
      firstName: 'B',
      lastName: 'M',
    }),
  });
  if (!register.ok) throw new Error(`register: ${register.status} ${await register.text()}`);
  return (register.headers.get('set-cookie') ?? '').split(';')[0]!;
}

export type BenchFlow = { flow: { id: string }; step: { id: string } };

/** `count` flows of one step each. */
export function createFlows(base: string, cookie: string, count: number): Promise<BenchFlow[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const flow = await call(base, cookie, 'POST', '/api/flows', {
        name: `Bench ${i}`,
        description: 'bench',
      });
      const step = await call(base, cookie, 'POST', '/api/steps', {
        flowId: flow.id,
        name: 'S',
        order: 1,
        systemPrompt: 'Summarise the benchmark.',
      });
      return { flow, step };
    }),
  );
}

/**
 * One client per flow, each starting an execution and running its step, again and again for `seconds`;
 * every latency in ms, sorted, and how long the load took in all.
 */
export async function runCommands(base: string, cookie: string, flows: BenchFlow[], seconds: number) {
  const runLatencies: number[] = [];
  const startLatencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    flows.map(async ({ flow, step }) => {
      while (performance.now() < until) {
        let t0 = performance.now();
        const execution = await call(base, cookie, 'POST', `/api/flows/${flow.id}/execute`);
        startLatencies.push(performance.now() - t0);
        t0 = performance.now();
        await call(
          base,
          cookie,
          'POST',
          `/api/executions/${execution.id}/steps/${step.id}/execute`,
          { userInput: '' },
          STEP_RUN_HEADERS,
        );
        runLatencies.push(performance.now() - t0);
      }
    }),
  );
  runLatencies.sort((x, y) => x - y);
  startLatencies.sort((x, y) => x - y);
  return { runLatencies, startLatencies, seconds: (performance.now() - started) / 1000 };
}

/** Where a load sends its commands: the server (under /api) or the floor routes (under /floor). */
export interface CommandTarget {
  base: string;
  cookie: string;
  prefix: '/api' | '/floor';
}

/** An execution started by a load, with the step a step run load runs on it. */
export type Runnable = { executionId: string; stepId: string };

/**
 * One client per flow, each starting executions of its flow back to back for `seconds`: every latency in ms,
 * the executions started (for a step run load) and how long the load took in all.
 */
export async function startLoad(target: CommandTarget, flows: BenchFlow[], seconds: number) {
  const latencies: number[] = [];
  const started: Runnable[] = [];
  const t = performance.now();
  const until = t + seconds * 1000;
  await Promise.all(
    flows.map(async ({ flow, step }) => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const execution = await call(
          target.base,
          target.cookie,
          'POST',
          `${target.prefix}/flows/${flow.id}/execute`,
        );
        latencies.push(performance.now() - t0);
        started.push({ executionId: execution.id, stepId: step.id });
      }
    }),
  );
  return { latencies, started, seconds: (performance.now() - t) / 1000 };
}

/**
 * `clients` clients running the step of one fresh execution after another, taken from `queue` (which the load
 * empties), for `seconds` or until none is left (`ranOut`): every latency in ms and how long the load took.
 */
export async function stepRunLoad(
  target: CommandTarget,
  queue: Runnable[],
  clients: number,
  seconds: number,
) {
  const latencies: number[] = [];
  let ranOut = false;
  const t = performance.now();
  const until = t + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) {
        const next = queue.shift();
        if (!next) {
          ranOut = true;
          return;
        }
        const t0 = performance.now();
        await call(
          target.base,
          target.cookie,
          'POST',
          `${target.prefix}/executions/${next.executionId}/steps/${next.stepId}/execute`,
          { userInput: '' },
          STEP_RUN_HEADERS,
        );
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - t) / 1000, ranOut };
}

/** Sockets opened at once: enough to open thousands in seconds, few enough not to flood the accept queue. */
const SOCKETS_OPENED_AT_ONCE = 200;

/** A websocket, added to `open` at once so that it is closed however the opening of the others ends. */
function openSocket(url: string, cookie: string, open: WebSocket[]) {
  const socket = new WebSocket(url, { headers: { cookie }, perMessageDeflate: false });
  open.push(socket);
  return new Promise<WebSocket>((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** What the push figure is measured on: the server's live updates, or the floor's bare websocket. */
export interface PushTarget {
  /** The websocket's address, and the cookie it is opened with. */
  socketUrl: string;
  cookie: string;
  /** What each socket sends to subscribe. */
  subscription: unknown;
  /** The position of the last event before the first command: the pushed events follow it. */
  from: number;
  /** A command that makes the next event. */
  command: (n: number) => Promise<unknown>;
  /** The CPU time of the process that pushes, in ms (none: several processes push). */
  cpu?: () => Promise<number>;
}

/** The server's push: sockets on one execution of `flow`, each command approving or un-approving its result. */
export async function serverPushTarget(
  base: string,
  cookie: string,
  { flow, step }: BenchFlow,
  cpu?: () => Promise<number>,
): Promise<PushTarget> {
  const pushed = await call(base, cookie, 'POST', `/api/flows/${flow.id}/execute`);
  const { results } = await call(
    base,
    cookie,
    'POST',
    `/api/executions/${pushed.id}/steps/${step.id}/execute`,
    {},
  );
  const from = (await call(base, cookie, 'GET', `/api/executions/${pushed.id}`)).version as number;
  return {
    socketUrl: `${base.replace('http', 'ws')}/api/ws`,
    cookie,
    subscription: { type: 'subscribe', executionId: pushed.id, after: from },
    from,
    command: (n) =>
      call(base, cookie, 'PUT', `/api/step-results/${results[0].id}`, { approved: n % 2 === 1 }),
    ...(cpu ? { cpu } : {}),
  };
}

/** The floor's push (bench/floor.ts): a bare websocket, and a command that appends and sends one message. */
export async function floorPushTarget(base: string, cpu: () => Promise<number>): Promise<PushTarget> {
  const { position: from } = await call(base, '', 'GET', '/floor/push');
  return {
    socketUrl: `${base.replace('http', 'ws')}/floor/ws`,
    cookie: '',
    subscription: { type: 'subscribe' },
    from,
    command: () => call(base, '', 'POST', '/floor/push'),
    cpu,
  };
}

/**
 * Push: `sockets` sockets subscribed, 40 commands each making one event; command sent -> receipt for each
 * event on each socket, and the pushing process's CPU per message sent. A socket missed an event it never
 * got, and duplicated one it got more than once. Each target opens its sockets anew, on the same terms.
 */
export async function measurePush(target: PushTarget, sockets: number) {
  const { from } = target;
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  const received = Array.from({ length: sockets }, () => new Map<number, number>());
  const open: WebSocket[] = [];
  const subscribed = new Set<number>();
  const listen = (socket: WebSocket, i: number) => {
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'up-to-date') subscribed.add(i);
      if (message.type !== 'event') return;
      received[i]!.set(message.position, (received[i]!.get(message.position) ?? 0) + 1);
      const sent = sentAt.get(message.position);
      if (sent !== undefined) latencies.push(performance.now() - sent);
    });
    socket.send(JSON.stringify(target.subscription));
  };
  try {
    for (let first = 0; first < sockets; first += SOCKETS_OPENED_AT_ONCE) {
      const batch = Array.from({ length: Math.min(SOCKETS_OPENED_AT_ONCE, sockets - first) }, (_, j) =>
        openSocket(target.socketUrl, target.cookie, open).then((socket) => listen(socket, first + j)),
      );
      await Promise.all(batch);
    }
    // Every socket subscribed before the first command, so each latency is that of a push, not of a catch-up.
    const subscribing = performance.now() + 30_000;
    while (subscribed.size < sockets && performance.now() < subscribing) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const commands = 40;
    const cpuBefore = await target.cpu?.();
    for (let n = 1; n <= commands; n++) {
      sentAt.set(from + n, performance.now());
      await target.command(n);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const deadline = performance.now() + 10_000;
    while (received.some((got) => got.size < commands) && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const cpuMs = cpuBefore === undefined ? null : (await target.cpu!()) - cpuBefore;
    latencies.sort((x, y) => x - y);
    let missed = 0;
    let duplicated = 0;
    for (const got of received) {
      for (let n = 1; n <= commands; n++) {
        const times = got.get(from + n) ?? 0;
        if (times === 0) missed++;
        if (times > 1) duplicated++;
      }
    }
    return {
      sockets,
      events: commands,
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      missed,
      duplicated,
      cpuMicrosecondsPerMessage: cpuMs === null ? null : round((cpuMs * 1000) / (commands * sockets), 1),
    };
  } finally {
    // Closed before the next measure opens its own.
    await Promise.all(open.map((socket) => closeSocket(socket)));
  }
}

function closeSocket(socket: WebSocket) {
  if (socket.readyState === WebSocket.CLOSED) return;
  const closed = new Promise((resolve) => socket.once('close', resolve));
  if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
  else socket.close();
  return closed;
}
