import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { call, createFlows, median, percentile, type Row, round, signUp } from './load';
import { serverEnv, startProcess } from './server-process';

// Tokens pushed while many runs stream at once: from a model's chunk to the browser's websocket, against the
// model's own stream read directly.

/** Step runs streaming at once, each on an execution of its own watched by one socket. */
const RUNS = Number(process.env.BENCH_STREAMS ?? 200);
/** Chunks per answer and the model's pace: 30 chunks 20 ms apart (50 a second, as a fast model streams). */
const CHUNKS = 30;
const CHUNK_INTERVAL_MS = 20;
const ROUNDS = 3;
const MODEL = 'bench-model';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An OpenAI-compatible endpoint in this process whose answers are streamed at a model's pace: each chunk's
 * text names a token number, and the time it was written is kept under that number (the bench's clock), so
 * whoever receives it can tell how long it took.
 */
async function startPacedModel() {
  const sentAt = new Map<number, number>();
  let next = 0;
  const server: Server = createServer(async (req, res) => {
    for await (const _ of req) {
      // The request's body is not looked at: every answer is the same number of chunks.
    }
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: MODEL, object: 'model', owned_by: 'bench' }] }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: MODEL,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (let i = 0; i < CHUNKS; i++) {
      await sleep(CHUNK_INTERVAL_MS);
      if (res.destroyed) return;
      const token = next++;
      sentAt.set(token, performance.now());
      res.write(chunk({ content: ` t${token}` }, null));
    }
    res.write(chunk({}, 'stop'));
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: MODEL, choices: [], usage: { prompt_tokens: 10, completion_tokens: CHUNKS, total_tokens: CHUNKS + 10 } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    /**
     * Time from each token's write to `receivedAt`, for every token named in `text`; those written after
     * `liveSince` (when its socket had its run's start event) go to `live` too.
     */
    latencies(text: string, receivedAt: number, into: number[], live?: number[], liveSince = Infinity) {
      for (const [, token] of text.matchAll(/t(\d+)/g)) {
        const sent = sentAt.get(Number(token));
        if (sent === undefined) continue;
        into.push(receivedAt - sent);
        if (sent >= liveSince) live?.push(receivedAt - sent);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type PacedModel = Awaited<ReturnType<typeof startPacedModel>>;

/** The model's own stream: `RUNS` HTTP clients reading answers straight from it; chunk written -> received. */
async function direct(model: PacedModel) {
  const latencies: number[] = [];
  const { hostname, port } = new URL(model.url);
  await Promise.all(
    Array.from(
      { length: RUNS },
      () =>
        new Promise<void>((resolve, reject) => {
          const body = JSON.stringify({
            model: MODEL,
            stream: true,
            messages: [{ role: 'user', content: 'x' }],
          });
          const req = request(
            {
              hostname,
              port,
              path: '/v1/chat/completions',
              method: 'POST',
              headers: { 'content-type': 'application/json' },
            },
            (res) => {
              res.setEncoding('utf8');
              res.on('data', (text: string) => model.latencies(text, performance.now(), latencies));
              res.on('end', () => resolve());
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(body);
        }),
    ),
  );
  return latencies;
}

/**
 * Through the server: `RUNS` executions, each watched by a socket subscribed after its start, their step
 * runs sent at once; chunk written by the model -> its delta received on the socket.
 */
async function throughServer(
  model: PacedModel,
  base: string,
  cookie: string,
  flow: { id: string },
  step: { id: string },
) {
  const latencies: number[] = [];
  const live: number[] = [];
  const executions: { id: string; version: number }[] = await Promise.all(
    Array.from({ length: RUNS }, () => call(base, cookie, 'POST', `/api/flows/${flow.id}/execute`)),
  );
  const sockets: WebSocket[] = [];
  try {
    await Promise.all(
      executions.map(
        ({ id, version }) =>
          new Promise<void>((resolve, reject) => {
            const socket = new WebSocket(`${base.replace('http', 'ws')}/api/ws`, {
              headers: { cookie },
              perMessageDeflate: false,
            });
            sockets.push(socket);
            socket.once('error', reject);
            // A run's tokens reach a socket only after the run's start event (held until then).
            let started = Number.POSITIVE_INFINITY;
            socket.on('message', (raw) => {
              const receivedAt = performance.now();
              const message = JSON.parse(String(raw));
              if (message.type === 'up-to-date') resolve();
              if (message.type === 'event' && message.event?.type === 'StepRunStarted') started = receivedAt;
              if (message.type === 'delta')
                model.latencies(message.text, receivedAt, latencies, live, started);
            });
            socket.once('open', () =>
              socket.send(JSON.stringify({ type: 'subscribe', executionId: id, after: version })),
            );
          }),
      ),
    );
    const answers = await Promise.all(
      executions.map(({ id }) =>
        call(base, cookie, 'POST', `/api/executions/${id}/steps/${step.id}/execute`, { userInput: '' }),
      ),
    );
    const streamed = answers.filter((answer) => /t\d+/.test(answer.results?.[0]?.result ?? '')).length;
    if (streamed !== RUNS)
      throw new Error(`${RUNS - streamed} step runs were not answered by the paced model`);
    return { latencies, live };
  } finally {
    for (const socket of sockets) socket.terminate();
  }
}

/**
 * `RUNS` step runs streaming at once through the server, against `RUNS` clients reading the same paced model
 * directly; three rounds taking turns (which goes first alternating), each side's p99 the median of its
 * rounds', and the difference the median of the rounds' differences.
 */
export async function benchTokenPush(databaseUrl: string) {
  const model = await startPacedModel();
  const server = startProcess(['src/api/server.ts'], {
    ...serverEnv(databaseUrl),
    OPENAI_BASE_URL: model.url,
    OPENAI_API_KEY: 'bench',
  });
  try {
    const base = await server.url;
    const cookie = await signUp(base);
    const [{ flow, step }] = (await createFlows(base, cookie, 1)) as [
      { flow: { id: string }; step: { id: string } },
    ];
    const viaServer = () => throughServer(model, base, cookie, flow, step);
    // Warm-up, uncounted: the server's first runs compile the streaming path.
    await viaServer();
    await direct(model);
    const rounds: { server: number; direct: number; live: number; missed: number }[] = [];
    const sorted = (values: number[]) => values.sort((a, b) => a - b);
    for (let r = 0; r < ROUNDS; r++) {
      const p99 = { server: 0, direct: 0, live: 0, missed: 0 };
      for (const side of r % 2 === 0 ? (['server', 'direct'] as const) : (['direct', 'server'] as const)) {
        let latencies: number[];
        if (side === 'server') {
          const pushed = await viaServer();
          latencies = sorted(pushed.latencies);
          p99.live = percentile(sorted(pushed.live), 99);
        } else latencies = sorted(await direct(model));
        p99[side] = percentile(latencies, 99);
        // Every token of every run is received once, each side.
        p99.missed += RUNS * CHUNKS - latencies.length;
      }
      rounds.push(p99);
    }
    const missed = rounds.reduce((sum, r) => sum + r.missed, 0);
    const serverP99 = median(rounds.map((r) => r.server));
    const directP99 = median(rounds.map((r) => r.direct));
    const added = median(rounds.map((r) => r.server - r.direct));
    const results = {
      runs: RUNS,
      chunks: CHUNKS,
      chunkIntervalMs: CHUNK_INTERVAL_MS,
      rounds: rounds.map((r) => ({ server: round(r.server), direct: round(r.direct), live: round(r.live) })),
      /** p99 of the tokens written after their socket had received the run's start event (none held). */
      liveP99: round(median(rounds.map((r) => r.live))),
      missed,
      serverP99: round(serverP99),
      directP99: round(directP99),
      addedMs: round(added),
    };
    const rows: Row[] = [
      {
        figure: `tokens pushed, ${RUNS} runs streaming at once: model chunk -> websocket p99 vs the model's own stream`,
        value: `${results.serverP99} ms vs ${results.directP99} ms, +${results.addedMs} ms (rounds ${results.rounds.map((r) => `${r.server}/${r.direct}`).join(', ')} ms; ${CHUNKS} chunks ${CHUNK_INTERVAL_MS} ms apart a run), missed ${missed}; tokens written after their run's start event reached the socket: p99 ${results.liveP99} ms`,
        target: '<= +10 ms, none missed',
        met: added <= 10 && missed === 0,
      },
    ];
    return { rows, results };
  } finally {
    await server.stop();
    await model.close();
  }
}
