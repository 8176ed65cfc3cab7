import { connect } from '../src/api/database/connection';
import { EventStore } from '../src/eventstore';
import { call, type Row, round } from './load';
import { BENCH_APP_SECRET, serverEnv, startProcess } from './server-process';

// Whether a row or a page costs the same as the work grows: each figure a ratio within one run, the median
// of three rounds. `BENCH_ONLY=lists npm run bench` runs only these.

const ROUNDS = 3;
const MASTER_ROWS = 1_000;
/** The rows at each end of an Execute All whose time per row is compared. */
const ENDS = 100;
const LONG_FLOWS = 5_000;
const SHORT_FLOWS = 10;
const LONG_EVENTS = 10_000;
/** Page reads per round and list: sequential, one client. */
const PAGE_READS = 500;
/** The page size asked for both lists of a pair: the same items answered, so only the list's length differs. */
const PAGE = 10;

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The mean of all but the largest tenth. */
function usualMean(values: number[]) {
  const kept = values.toSorted((a, b) => a - b).slice(0, Math.ceil(values.length * 0.9));
  return kept.reduce((sum, value) => sum + value, 0) / kept.length;
}

async function signUpAs(base: string, email: string) {
  const response = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'bench-password', firstName: 'G', lastName: 'B' }),
  });
  if (!response.ok) throw new Error(`register: ${response.status} ${await response.text()}`);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** `count` calls of `one`, `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, one: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await one(next++);
    }),
  );
}

/** Page reads per second of `url`, one after another. */
async function readsPerSecond(base: string, cookie: string, url: string) {
  const started = performance.now();
  for (let i = 0; i < PAGE_READS; i++) await call(base, cookie, 'GET', url);
  return PAGE_READS / ((performance.now() - started) / 1000);
}

/** Rounds alternating the short list and the long one; the median of the rounds' long/short ratios. */
async function pagePair(base: string, short: [string, string], long: [string, string]) {
  // One uncounted pass each: the first reads plan the queries and warm the caches.
  await readsPerSecond(base, ...short);
  await readsPerSecond(base, ...long);
  const rounds: { short: number; long: number; ratio: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const s = await readsPerSecond(base, ...short);
    const l = await readsPerSecond(base, ...long);
    rounds.push({ short: Math.round(s), long: Math.round(l), ratio: round(l / s, 2) });
  }
  return { rounds, ratio: median(rounds.map((r) => r.ratio)) };
}

/**
 * Execute All over 1,000 text rows, three times on one session (its stream grows by every round): each round,
 * the time per row of its first 100 rows against its last 100.
 */
async function executeAllGrowth(base: string, cookie: string) {
  const session = await call(base, cookie, 'POST', '/api/master-mode/standalone', { name: 'Growth' });
  await inParallel(MASTER_ROWS, 8, (i) =>
    call(base, cookie, 'POST', '/api/master-mode/steps', {
      sessionId: session.id,
      order: i + 1,
      stepName: `Row ${i + 1}`,
      stepType: 'text',
      userInput: `row ${i + 1}`,
    }),
  );
  const rounds: { firstMsPerRow: number; lastMsPerRow: number; ratio: number }[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const { runAllId } = await call(base, cookie, 'POST', `/api/master-mode/execute-all/${session.id}`);
    const record = `/api/master-mode/session/${session.id}/execute-all/${runAllId}`;
    for (;;) {
      const { outcome } = await call(base, cookie, 'GET', record);
      if (outcome === 'completed') break;
      if (outcome !== null) throw new Error(`Execute All ended ${outcome}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // This round's runs: the newest 1,000, read page by page.
    const starts: number[] = [];
    let cursor: string | null = null;
    while (starts.length < MASTER_ROWS) {
      const query: string = `limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await call(base, cookie, 'GET', `/api/master-mode/session/${session.id}/runs?${query}`);
      starts.push(...page.items.map((run: { requestedAt: string }) => Date.parse(run.requestedAt)));
      cursor = page.nextCursor;
    }
    starts.reverse();
    // A row's time: from its run's start to the next's (recorded to the millisecond). Each end's mean leaves
    // out its slowest tenth, so that a pause of the machine (a vacuum, a collection) in a few rows moves neither.
    const gaps = starts.slice(1).map((at, i) => at - starts[i]!);
    const first = usualMean(gaps.slice(0, ENDS));
    const last = usualMean(gaps.slice(-ENDS));
    rounds.push({
      firstMsPerRow: round(first, 2),
      lastMsPerRow: round(last, 2),
      ratio: round(first / last, 2),
    });
  }
  return { rounds, ratio: median(rounds.map((r) => r.ratio)) };
}

/** A user with `count` flows: made through the API up to SHORT_FLOWS, the rest written to the flows table. */
async function userWithFlows(base: string, sql: ReturnType<typeof connect>, email: string, count: number) {
  const cookie = await signUpAs(base, email);
  await inParallel(Math.min(count, SHORT_FLOWS), 4, (i) =>
    call(base, cookie, 'POST', '/api/flows', { name: `Flow ${i}`, description: 'growth' }),
  );
  if (count > SHORT_FLOWS) {
    // The list reads the flows table only (a read model): the long list's other flows are written there.
    await sql`
      INSERT INTO flows (user_id, name, description, status, created_at, updated_at)
      SELECT u.id, 'Flow ' || n, 'growth', 'active', now() - n * interval '1 second', now() - n * interval '1 second'
      FROM users u, generate_series(1, ${count - SHORT_FLOWS}) AS n WHERE u.email = ${email}`;
    await sql`ANALYZE flows`;
  }
  return cookie;
}

/**
 * An execution whose step ran until its log holds more than a page, and one whose log then grows to 10,000
 * events: copies of its own step runs' events appended after them (the first page reads neither).
 */
async function executionsOfLogs(base: string, cookie: string, sql: ReturnType<typeof connect>) {
  const flow = await call(base, cookie, 'POST', '/api/flows', { name: 'History', description: 'growth' });
  const step = await call(base, cookie, 'POST', '/api/steps', {
    flowId: flow.id,
    name: 'S',
    order: 1,
    systemPrompt: 'Summarise.',
  });
  const ran = async () => {
    const execution = await call(base, cookie, 'POST', `/api/flows/${flow.id}/execute`);
    for (let i = 0; i < 20; i++)
      await call(base, cookie, 'POST', `/api/executions/${execution.id}/steps/${step.id}/execute`, {
        userInput: '',
      });
    return execution.id as string;
  };
  const short = await ran();
  const long = await ran();
  const store = new EventStore(sql);
  const streamId = `execution-${long}`;
  const { version, events } = await store.readStream(streamId);
  const runs = events.filter((event) => event.type.startsWith('StepRun'));
  let at = version;
  while (at < LONG_EVENTS) {
    const batch = Array.from({ length: Math.min(500, LONG_EVENTS - at) }, (_, i) => {
      const copied = runs[i % runs.length]!;
      return { type: copied.type, data: copied.data };
    });
    await store.append(streamId, 'execution', at, batch);
    at += batch.length;
  }
  return { short, long };
}

/** The growth rows: Execute All's last rows against its first, and first pages of long lists against short. */
export async function benchListGrowth(databaseUrl: string): Promise<{ rows: Row[]; results: unknown }> {
  const server = startProcess(['src/api/server.ts'], serverEnv(databaseUrl));
  const sql = connect(databaseUrl, { appSecret: BENCH_APP_SECRET });
  try {
    const base = await server.url;
    const master = await executeAllGrowth(base, await signUpAs(base, 'growth-master@example.com'));

    const shortFlows = await userWithFlows(base, sql, 'growth-few@example.com', SHORT_FLOWS);
    const longFlows = await userWithFlows(base, sql, 'growth-many@example.com', LONG_FLOWS);
    const flows = await pagePair(
      base,
      [shortFlows, `/api/flows?limit=${PAGE}`],
      [longFlows, `/api/flows?limit=${PAGE}`],
    );

    const logs = await executionsOfLogs(base, shortFlows, sql);
    const eventsOf = (id: string): [string, string] => [
      shortFlows,
      `/api/executions/${id}/events?limit=${PAGE}`,
    ];
    const history = await pagePair(base, eventsOf(logs.short), eventsOf(logs.long));

    const perRow = (r: (typeof master.rounds)[number]) => `${r.firstMsPerRow} -> ${r.lastMsPerRow}`;
    const rates = (r: { short: number; long: number }) => `${r.short} / ${r.long}`;
    return {
      results: { executeAll: master, flows, history },
      rows: [
        {
          figure: `growth: Execute All of ${MASTER_ROWS} rows, ms per row first ${ENDS} vs last ${ENDS} (${ROUNDS} rounds)`,
          value: `${master.ratio}x (median; ms/row ${master.rounds.map(perRow).join(', ')})`,
          target: '>= 0.8x',
          met: master.ratio >= 0.8,
        },
        {
          figure: `growth: flows list first page (limit ${PAGE}), ${LONG_FLOWS} flows vs ${SHORT_FLOWS}`,
          value: `${flows.ratio}x (median; reads/s ${flows.rounds.map(rates).join(', ')})`,
          target: '>= 0.8x',
          met: flows.ratio >= 0.8,
        },
        {
          figure: `growth: execution history first page (limit ${PAGE}), ${LONG_EVENTS} events vs ~80`,
          value: `${history.ratio}x (median; reads/s ${history.rounds.map(rates).join(', ')})`,
          target: '>= 0.8x',
          met: history.ratio >= 0.8,
        },
      ],
    };
  } finally {
    await sql.end();
    await server.stop();
  }
}
