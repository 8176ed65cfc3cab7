import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { connect } from '../src/api/database/connection';
import { startEmbeddedPostgres } from '../src/api/database/embedded-postgres';
import { migrate } from '../src/api/database/migrate';
import { benchAppend } from './append';
import { benchAppendParts } from './append-parts';
import { benchAuditLog } from './audit-log';
import { benchCluster, clusterSkipped } from './cluster';
import { createFloorFlows, inTurn, measureCommands, measureRoundTrips, ROUNDS } from './commands';
import { benchExperiment } from './experiment';
import { benchGrowth } from './growth';
import { benchListGrowth } from './list-growth';
import {
  type CommandTarget,
  call,
  createFlows,
  floorPushTarget,
  measurePush,
  median,
  type Row,
  round,
  serverPushTarget,
  signUp,
} from './load';
import { measurePolling } from './polling';
import { startPostgresProxy } from './postgres-proxy';
import { benchRebuildAtScale, buildTools } from './rebuild-scale';
import { BENCH_APP_SECRET, runScript, serverEnv, startProcess } from './server-process';
import { benchTokenPush } from './token-push';
import { benchTracing } from './tracing';

const ROOT = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const sockets = Number(process.env.BENCH_SOCKETS ?? 5000);
const REBUILDS = 3;
/**
 * `BENCH_ONLY=growth`: only the growth rows of step runs (a long execution against a new one); `lists`: only
 * those of Execute All and of lists' first pages; `scale`: only the rebuild of a million events and the
 * tokens of 200 runs streaming at once (and the audit log's rows); `tokens`: only those tokens; `append`: only
 * the append rows; `audit`: only the audit log at a million events (its leaves, a checkpoint, proofs);
 * `experiment`: only an experiment against the same executions through the API; `append-parts`: what each part
 * of a one-event append costs against a raw INSERT (not in the whole run); without the rest.
 */
const ONLY = process.env.BENCH_ONLY;

const rows: Row[] = [];
const results: Record<string, unknown> = {
  machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
};

async function withDatabase() {
  const given = process.env.BENCH_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | null = null;
  let adminUrl = given;
  if (!adminUrl) {
    const dir = await mkdtemp(path.join(tmpdir(), 'workbench-bench-pg-'));
    await chmod(dir, 0o755);
    const embedded = await startEmbeddedPostgres(path.join(dir, 'postgres'), { persistent: false });
    // Reached as `npm start` reaches its embedded PostgreSQL: by its Unix socket (connect() reads `?host=`).
    adminUrl = embedded.socketDirectory
      ? `${embedded.url}?host=${encodeURIComponent(embedded.socketDirectory)}`
      : embedded.url;
    stopEmbedded = async () => {
      await embedded.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const admin = connect(adminUrl, { max: 1 });
  const created: string[] = [];
  return {
    async fresh() {
      const name = `bench_${randomBytes(5).toString('hex')}`;
      await admin.unsafe(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(adminUrl!);
      url.pathname = `/${name}`;
      const sql = connect(url.toString(), { appSecret: BENCH_APP_SECRET });
      await migrate(sql);
      await sql.end();
      return url.toString();
    },
    async close() {
      for (const name of created) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      await stopEmbedded?.();
    },
  };
}

type Commands = Awaited<ReturnType<typeof measureCommands>>[number];

/** Each round's ratio of the server's figure to the floor's, and their median. */
function roundRatios(server: (number | null)[], floor: (number | null)[]) {
  const ratios = server.map((mine, n) => (mine === null || floor[n] == null ? Number.NaN : mine / floor[n]!));
  return { median: round(median(ratios), 2), rounds: ratios.map((ratio) => round(ratio, 2)).join(' / ') };
}

/**
 * Starts and step runs against the floor routes, their latencies, and the server's CPU for each. The ratios
 * are the medians of the three rounds' (server and floor taking turns), so one noisy round cannot move them.
 */
function commandRows(server: Commands, floor: Commands): Row[] {
  const perSecond = (figures: Commands['stepRuns']) => figures.rounds.map((r) => r.perSecond);
  const cpu = (figures: Commands['stepRuns']) => figures.rounds.map((r) => r.cpuMs);
  const runs = roundRatios(perSecond(server.stepRuns), perSecond(floor.stepRuns));
  const starts = roundRatios(perSecond(server.starts), perSecond(floor.starts));
  const runCpu = roundRatios(cpu(server.stepRuns), cpu(floor.stepRuns));
  const ranOut = server.ranOut || floor.ranOut ? ' (ran out of executions)' : '';
  const { starts: s, stepRuns: r } = server;
  return [
    {
      figure:
        'commands, 32 clients: step runs/s vs floor route (same round trips, no domain code; median of 3 rounds)',
      value: `${runs.median}x (rounds ${runs.rounds}; all rounds ${Math.round(r.perSecond)} / ${Math.round(floor.stepRuns.perSecond)})${ranOut}`,
      target: '>= 0.6x',
      met: runs.median >= 0.6,
    },
    {
      figure: 'commands, 32 clients: starts/s vs floor route (median of 3 rounds)',
      value: `${starts.median}x (rounds ${starts.rounds}; all rounds ${Math.round(s.perSecond)} / ${Math.round(floor.starts.perSecond)})`,
      target: 'report',
      met: null,
    },
    {
      figure: 'commands, 32 clients: POST .../execute (flow start) p99',
      value: `${s.p99} ms (p50 ${s.p50}); floor ${floor.starts.p99} ms`,
      target: 'report',
      met: null,
    },
    {
      figure: 'commands, 32 clients: POST .../steps/:id/execute (zero-latency model) p99',
      value: `${r.p99} ms (p50 ${r.p50}); floor ${floor.stepRuns.p99} ms`,
      target: 'report',
      met: null,
    },
    {
      figure: 'server CPU per start',
      value: `${s.cpuMs} ms (floor ${floor.starts.cpuMs} ms)`,
      target: 'report',
      met: null,
    },
    {
      figure: 'server CPU per step run vs the floor route (median of 3 rounds)',
      value: `${runCpu.median}x (rounds ${runCpu.rounds}; all rounds ${r.cpuMs} / ${floor.stepRuns.cpuMs} ms)`,
      target: '<= 1.5x',
      met: runCpu.median <= 1.5,
    },
  ];
}

/** Round trips per start and per step run, through a relay that counts them. */
async function roundTrips(databaseUrl: string) {
  const proxy = await startPostgresProxy(databaseUrl);
  const server = startProcess(['src/api/server.ts'], serverEnv(proxy.urlFor(databaseUrl)));
  try {
    const base = await server.url;
    const cookie = await signUp(base);
    const [flow] = await createFlows(base, cookie, 1);
    return await measureRoundTrips({ base, cookie, prefix: '/api' }, flow!, proxy);
  } finally {
    await server.stop();
    await proxy.close();
  }
}

/** The growth rows: a step run on an execution of 10,000 events against one on a new execution. */
async function growthRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  const growth = await benchGrowth(await databases.fresh());
  results.growth = growth.results;
  rows.push(...growth.rows);
}

/** The growth rows of Execute All (its last rows against its first) and of lists' first pages (long against short). */
async function listGrowthRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  const growth = await benchListGrowth(await databases.fresh());
  results.listGrowth = growth.results;
  rows.push(...growth.rows);
}

/** An experiment's runs/s against the same executions through the API, on a server of its own. */
async function experimentRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  const experiment = await benchExperiment(await databases.fresh());
  results.experiment = experiment.results;
  rows.push(...experiment.rows);
}

/** The append rows: store appends against raw INSERTs on one fresh database, one event and batches of ten. */
async function appendRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  const a = await benchAppend(await databases.fresh());
  results.append = a;
  rows.push({
    figure: 'append, 8 writers: store events/s vs raw INSERT tx/s (median of 3 rounds)',
    value: `${round(a.ratio, 2)}x (rounds ${a.roundRatios.join(' / ')}; all rounds ${Math.round(a.storeEventsPerSecond)} / ${Math.round(a.rawInsertsPerSecond)})`,
    target: '>= 0.6x',
    met: a.ratio >= 0.6,
  });
  rows.push({
    figure: 'append, batches of 10 events',
    value: `${Math.round(a.batchEventsPerSecond)} events/s`,
    target: '>= 25,000 events/s',
    met: a.batchEventsPerSecond >= 25_000,
  });
}

/** Tokens pushed while 200 runs stream. */
async function tokenRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  const tokens = await benchTokenPush(await databases.fresh());
  results.tokenPush = tokens.results;
  rows.push(...tokens.rows);
}

/** Step runs with traces exported against the same without, on two servers taking turns. */
async function tracingRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  const tracing = await benchTracing([await databases.fresh(), await databases.fresh()], SECONDS);
  results.tracing = tracing.results;
  rows.push(...tracing.rows);
}

/** The scale rows: the rebuild of a million events against 10,000, and tokens pushed while 200 runs stream. */
async function scaleRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  await tokenRows(databases);
  await buildTools();
  const rebuild = await benchRebuildAtScale(await databases.fresh());
  results.rebuildAtScale = rebuild.results;
  rows.push(...rebuild.rows);
  await auditLogRows(databases);
}

/** Each part of a one-event append (the keyed hash, the claim, RETURNING, the row) against a raw INSERT. */
async function appendPartsRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  const parts = await benchAppendParts(await databases.fresh());
  results.appendParts = parts;
  for (const part of parts.slice(1))
    rows.push({
      figure: `append's parts, 8 writers: ${part.kind} vs raw INSERT (median of 9 rounds)`,
      value: `${part.ratio}x (${part.eventsPerSecond} / ${parts[0]!.eventsPerSecond} events/s)`,
      target: 'report',
      met: null,
    });
}

/** The audit log at a million events: its leaves, a checkpoint, an inclusion and a consistency proof. */
async function auditLogRows(databases: Awaited<ReturnType<typeof withDatabase>>) {
  const audit = await benchAuditLog(await databases.fresh());
  results.auditLog = audit.results;
  rows.push(...audit.rows);
}

async function main() {
  const databases = await withDatabase();
  try {
    if (ONLY === 'scale') {
      await scaleRows(databases);
      return printRows(false);
    }
    if (ONLY === 'tokens') {
      await tokenRows(databases);
      return printRows(false);
    }
    if (ONLY === 'growth') {
      await growthRows(databases);
      return printRows(false);
    }
    if (ONLY === 'lists') {
      await listGrowthRows(databases);
      return printRows(false);
    }
    if (ONLY === 'audit') {
      await auditLogRows(databases);
      return printRows(false);
    }
    if (ONLY === 'append') {
      await appendRows(databases);
      return printRows(false);
    }
    if (ONLY === 'append-parts') {
      await appendPartsRows(databases);
      return printRows(false);
    }
    if (ONLY === 'experiment') {
      await experimentRows(databases);
      return printRows(false);
    }
    if (ONLY === 'tracing') {
      await tracingRows(databases);
      return printRows(false);
    }
    if (ONLY !== undefined)
      throw new Error(
        `BENCH_ONLY=${ONLY}: only 'append', 'append-parts', 'audit', 'experiment', 'growth', 'lists', 'scale', 'tokens' or 'tracing' can be run alone`,
      );
    // 1. Append throughput against raw inserts, same run, same connection count.
    await appendRows(databases);

    // 2-4. The server in its own process, and the floor and empty routes in another.
    const databaseUrl = await databases.fresh();
    const server = startProcess(['src/api/server.ts'], serverEnv(databaseUrl), { cpuUsage: true });
    const empty = startProcess(
      ['bench/empty-server.ts'],
      { FLOOR_DATABASE_URL: await databases.fresh() },
      { cpuUsage: true },
    );
    const base = await server.url;
    const emptyBase = await empty.url;
    try {
      const cookie = await signUp(base);

      // Commands: starts only, then step runs only, 32 clients, the server and the floor routes taking turns.
      const clients = 32;
      const flows = await createFlows(base, cookie, clients);
      const app: CommandTarget = { base, cookie, prefix: '/api' };
      const floor: CommandTarget = { base: emptyBase, cookie: '', prefix: '/floor' };
      const [commands, floorCommands] = await measureCommands(
        [
          { target: app, flows, cpu: server.cpuMs },
          { target: floor, flows: await createFloorFlows(emptyBase, clients), cpu: empty.cpuMs },
        ],
        SECONDS,
      );
      results.commands = { clients, server: commands, floor: floorCommands };
      rows.push(...commandRows(commands!, floorCommands!));

      // Polling against an empty Fastify route, 64 connections each.
      const polled = await call(base, cookie, 'POST', `/api/flows/${flows[0]!.flow.id}/execute`);
      await call(base, cookie, 'POST', `/api/executions/${polled.id}/steps/${flows[0]!.step.id}/execute`, {});
      results.polling = await measurePolling(
        { url: `${base}/api/executions/${polled.id}`, headers: { cookie }, cpu: server.cpuMs },
        { url: `${emptyBase}/empty`, cpu: empty.cpuMs },
        SECONDS,
      );
      const p = results.polling as Record<string, number>;
      rows.push({
        figure: 'polling GET /api/executions/:id, 64 conns: req/s vs empty route, p99 (medians of 3 rounds)',
        value: `${p.ratio}x, p99 ${p.p99} ms (all rounds ${Math.round(p.requestsPerSecond!)} / ${Math.round(p.emptyRouteRequestsPerSecond!)} req/s); server CPU ${p.cpuMicrosecondsPerRequest} / ${p.emptyRouteCpuMicrosecondsPerRequest} µs a request`,
        target: '>= 0.5x, p99 <= 25 ms',
        met: p.ratio! >= 0.5 && p.p99! <= 25 && p.errors === 0,
      });

      // Push: `sockets` sockets on one execution; command sent -> receipt for each event on each socket,
      // against the same sockets and commands on the floor's bare websocket; three rounds taking turns (which
      // goes first alternating), each opening its sockets anew; the ratio of p99s is the rounds' median.
      const pushRounds: {
        server: Awaited<ReturnType<typeof measurePush>>;
        floor: Awaited<ReturnType<typeof measurePush>>;
      }[] = [];
      for (let n = 0; n < ROUNDS; n++) {
        const pushed: Partial<(typeof pushRounds)[number]> = {};
        for (const [, side] of inTurn(['floor', 'server'] as const, n)) {
          pushed[side] = await measurePush(
            side === 'floor'
              ? await floorPushTarget(emptyBase, empty.cpuMs)
              : await serverPushTarget(base, cookie, flows[1]!, server.cpuMs),
            sockets,
          );
        }
        pushRounds.push(pushed as (typeof pushRounds)[number]);
      }
      const pushRatio = roundRatios(
        pushRounds.map((r) => r.server.p99),
        pushRounds.map((r) => r.floor.p99),
      );
      const pushMissed = pushRounds.reduce((sum, r) => sum + r.server.missed, 0);
      results.push = { ratio: pushRatio.median, rounds: pushRounds };
      const each = (pick: (r: (typeof pushRounds)[number]) => unknown) => pushRounds.map(pick).join(' / ');
      rows.push({
        figure: `push, ${sockets} sockets: command sent -> event received p99 vs the bare websocket (median of 3 rounds)`,
        value:
          `${pushRatio.median}x (rounds ${pushRatio.rounds}; p99 ${each((r) => r.server.p99)} ms, floor ${each((r) => r.floor.p99)} ms), missed ${pushMissed}; ` +
          `server CPU ${each((r) => r.server.cpuMicrosecondsPerMessage)} / ${each((r) => r.floor.cpuMicrosecondsPerMessage)} µs a message`,
        target: '<= 1.2x, none missed',
        met: pushRatio.median <= 1.2 && pushMissed === 0,
      });
    } finally {
      await server.stop();
      await empty.stop();
    }

    // Round trips: another server, alone on a database of its own, reached through a counting relay.
    results.roundTrips = await roundTrips(await databases.fresh());
    const rt = results.roundTrips as Record<string, number>;
    rows.push({
      figure: `round trips to PostgreSQL per command (${rt.commands} one by one, timers subtracted)`,
      value: `start ${rt.perStart}, step run ${rt.perStepRun}`,
      target: 'report',
      met: null,
    });

    // Rebuild of the read models from the log the commands above wrote: `npm run projections:rebuild` in a
    // process of its own, as an operator runs it; the figure is the replay it reports, without its start-up.
    // A replay takes about a second, in which the machine's load moves it by a fifth: the middle of three.
    const replays: { events: number; seconds: number }[] = [];
    for (let i = 0; i < REBUILDS; i++) {
      const rebuilt = await runScript(['src/api/cli/rebuild-projections.ts'], serverEnv(databaseUrl));
      const replay = /from (\d+) events in ([\d.]+) s/.exec(rebuilt);
      if (!replay) throw new Error(`The rebuild said: ${rebuilt}`);
      replays.push({ events: Number(replay[1]), seconds: Number(replay[2]) });
    }
    const { events, seconds } = replays.toSorted((a, b) => a.seconds - b.seconds)[Math.floor(REBUILDS / 2)]!;
    results.rebuild = {
      events,
      seconds: round(seconds, 2),
      eventsPerSecond: Math.round(events / seconds),
      replaySeconds: replays.map((replay) => replay.seconds),
    };
    const r = results.rebuild as Record<string, number>;
    rows.push({
      figure: `rebuild (middle of ${REBUILDS} replays)`,
      value: `${r.eventsPerSecond} events/s (${events} events in ${replays.map((replay) => replay.seconds).join(' / ')} s)`,
      target: '>= 25,000 events/s',
      met: r.eventsPerSecond! >= 25_000,
    });

    await growthRows(databases);
    await listGrowthRows(databases);
    await experimentRows(databases);
    await tracingRows(databases);
    await scaleRows(databases);

    // The built server as several instances behind nginx, each on a database of its own.
    const skipped = clusterSkipped();
    if (skipped) console.log(`cluster figures left out: ${skipped}`);
    else {
      const cluster = await benchCluster(() => databases.fresh(), SECONDS, sockets);
      results.cluster = cluster.results;
      rows.push(...cluster.rows);
    }
  } finally {
    await databases.close();
  }
  printRows(true);
}

/** Prints the rows; with `all`, the web figure too, and writes them all to bench/results.json. */
function printRows(all: boolean) {
  // Initial JS of the signed-out landing page (index.html's entry and its preloaded chunks), gzip.
  const index = path.join(ROOT, 'dist/web/index.html');
  if (all && existsSync(index)) {
    const html = readFileSync(index, 'utf8');
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    const bytes = scripts.reduce(
      (sum, file) => sum + gzipSync(readFileSync(path.join(ROOT, 'dist/web', file))).length,
      0,
    );
    results.web = { initialJsGzipKb: round(bytes / 1024) };
    rows.push({
      figure: 'web: landing page initial JS (gzip)',
      value: `${round(bytes / 1024)} kB`,
      target: '<= 120 kB',
      met: bytes / 1024 <= 120,
    });
  }

  const width = Math.max(...rows.map((row) => row.figure.length));
  console.log(`\n${'figure'.padEnd(width)} | value | target`);
  for (const row of rows) {
    console.log(
      `${row.figure.padEnd(width)} | ${row.value} | ${row.target} ${row.met === null ? '' : row.met ? '(met)' : '(NOT met)'}`,
    );
  }
  // A run of some rows only leaves the last whole run's figures as they are.
  if (!all) return;
  writeFileSync(
    path.join(ROOT, 'bench/results.json'),
    `${JSON.stringify({ measuredAt: new Date().toISOString(), ...results, rows }, null, 2)}\n`,
  );
  console.log('\nwritten to bench/results.json');
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
