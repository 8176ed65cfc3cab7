import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Sql } from 'postgres';
import { connect } from '../src/api/database/connection';
import { call, createFlows, type Row, round, signUp } from './load';
import { BENCH_APP_SECRET, serverEnv, startProcess } from './server-process';

// Rebuild at scale: `npm run projections:rebuild` of a log of a million events, its peak memory, and its
// events/s against the rebuild of a log of 10,000 events of the same kind.

const ROOT = path.resolve(import.meta.dirname, '..');
/** The big log's events (BENCH_REBUILD_EVENTS), and the small one's it is compared with. */
export const BIG_EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? 1_000_000);
const SMALL_EVENTS = 10_000;
/** Replays of the small log: the middle one counts (one replay is about half a second). */
const SMALL_REPLAYS = 3;
/** Events inserted per statement while the log is lengthened (one transaction each). */
const EVENTS_PER_STATEMENT = 25_000;
/** Copies whose starts come before their step runs in the log, as a load of starts then runs leaves them. */
const INTERLEAVED = 100;
const PEAK_RSS_LIMIT_MB = 500;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/**
 * The real executions the log is made of: through the server (offline model), three flows, and on each an
 * execution only started, one with a step run, one with a step run whose result is approved, and one with
 * two step runs and a stop.
 */
async function realExecutions(databaseUrl: string) {
  const server = startProcess(['src/api/server.ts'], serverEnv(databaseUrl));
  try {
    const base = await server.url;
    const cookie = await signUp(base);
    for (const { flow, step } of await createFlows(base, cookie, 3)) {
      const start = async () => (await call(base, cookie, 'POST', `/api/flows/${flow.id}/execute`)).id;
      const run = (id: string) =>
        call(base, cookie, 'POST', `/api/executions/${id}/steps/${step.id}/execute`, { userInput: 'x' });
      await start();
      await run(await start());
      const { results } = await run(await start());
      await call(base, cookie, 'PUT', `/api/step-results/${results[0].id}`, { approved: true });
      const twice = await start();
      await run(twice);
      await run(twice);
      await call(base, cookie, 'POST', `/api/executions/${twice}/stop`);
    }
  } finally {
    await server.stop();
  }
}

/**
 * The copies' ids: each id in the executions' events (execution, runs, results, commands) that names no
 * user, flow or step becomes md5(id:n) in copy n, the same in every event of the copy, so the copies are
 * executions of the same flows, each with ids of its own.
 */
async function prepareCopies(sql: Sql) {
  await sql.unsafe(`
    CREATE FUNCTION pg_temp.remap(t text, olds text[], n int) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE
      old text;
    BEGIN
      FOREACH old IN ARRAY olds LOOP
        t := replace(t, old, md5(old || ':' || n)::uuid::text);
      END LOOP;
      RETURN t;
    END $$`);
  await sql.unsafe(`
    CREATE TEMP TABLE bench_template_events AS
    WITH kept AS (
      SELECT id::text AS id FROM users UNION SELECT id::text FROM flows UNION SELECT id::text FROM steps
    ), olds AS (
      SELECT e.stream_id, array_agg(DISTINCT m[1]) AS olds
      FROM events e, regexp_matches(e.stream_id || e.data::text || e.metadata::text, '(${UUID})', 'g') m
      WHERE e.stream_id LIKE 'execution-%' AND m[1] NOT IN (SELECT id FROM kept)
      GROUP BY e.stream_id
    )
    SELECT e.stream_id, e.stream_position, e.event_type, e.data::text AS data, e.metadata::text AS metadata,
      o.olds, s.version
    FROM events e JOIN olds o USING (stream_id) JOIN streams s USING (stream_id)`);
  const [counted] = await sql<{ events: number }[]>`
    SELECT count(*)::int AS events FROM bench_template_events`;
  return counted!.events;
}

/**
 * Copies of the real executions appended until the log holds `length` events, straight into `streams` and
 * `events` as the store's append writes them: a stream row with its version, positions from 1, new event
 * ids, and each event's keyed hash computed by the statement as the append computes it (the connection
 * carries the event key). A hundred copies' starts come first in the log, then their step runs, and so on.
 * Returns the log's length.
 */
async function lengthen(sql: Sql, templateEvents: number, length: number) {
  const [there] = await sql<{ count: number; copies: number }[]>`
    SELECT (SELECT count(*)::int FROM events) AS count,
      (SELECT count(*)::int FROM streams WHERE stream_id ~ '^execution-') AS copies`;
  const { count, copies } = there!;
  const perStatement = Math.max(1, Math.floor(EVENTS_PER_STATEMENT / templateEvents));
  // Copy numbers go on from the streams there (the templates' are among them), so ids never repeat.
  let n = copies;
  let events = count;
  while (events < length) {
    const many = Math.min(perStatement, Math.ceil((length - events) / templateEvents));
    await sql`
      WITH copies AS (SELECT generate_series(${n}::int, ${n + many - 1}::int) AS n),
      streams AS (
        INSERT INTO streams (stream_id, stream_type, version)
        SELECT DISTINCT pg_temp.remap(t.stream_id, t.olds, c.n), 'execution', t.version
        FROM bench_template_events t, copies c
      ),
      key AS MATERIALIZED (SELECT event_chain_key() AS key)
      INSERT INTO events (stream_id, stream_position, event_id, event_type, data, metadata, hash)
      SELECT e.stream_id, e.stream_position, gen_random_uuid(), e.event_type, e.data, e.metadata,
        event_hash(key.key, e.stream_id, e.stream_position, e.event_type, e.metadata, e.data)
      FROM key, (
        -- OFFSET 0: each copy's texts remapped once, not again for the hash.
        SELECT pg_temp.remap(t.stream_id, t.olds, c.n) AS stream_id, t.stream_position, t.event_type,
          pg_temp.remap(t.data, t.olds, c.n)::jsonb AS data,
          pg_temp.remap(t.metadata, t.olds, c.n)::jsonb AS metadata,
          c.n / ${INTERLEAVED} AS turn, c.n, t.stream_id AS template
        FROM bench_template_events t, copies c
        OFFSET 0
      ) e
      ORDER BY e.turn, e.stream_position, e.n, e.template`;
    n += many;
    events += many * templateEvents;
  }
  await sql`VACUUM ANALYZE events, streams`.simple();
  return events;
}

/** The built CLI, as `npm run projections:rebuild` runs it: its replay's events, seconds and peak memory. */
function rebuild(databaseUrl: string) {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/rebuild-projections.js')], {
    cwd: ROOT,
    env: { ...process.env, ...serverEnv(databaseUrl) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise<{ events: number; seconds: number; peakMb: number }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const said = /from (\d+) events in ([\d.]+) s; peak memory (\d+) MB/.exec(output);
      if (code !== 0 || !said) return reject(new Error(`The rebuild (exit ${code}) said: ${output}`));
      resolve({ events: Number(said[1]), seconds: Number(said[2]), peakMb: Number(said[3]) });
    });
  });
}

/** Builds the server's tools (the rebuild is timed as the built CLI an operator runs). */
export function buildTools() {
  const child = spawn('npm', ['run', '-s', 'build:server'], { cwd: ROOT, stdio: 'inherit' });
  return new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build:server exited ${code}`))));
  });
}

/**
 * The log made of real executions and their copies, 10,000 events long, replayed three times; then the
 * same log lengthened to `BIG_EVENTS` and replayed once: its events/s against the small log's middle
 * replay, and the rebuild process's peak memory.
 */
export async function benchRebuildAtScale(databaseUrl: string) {
  await realExecutions(databaseUrl);
  const sql = connect(databaseUrl, { max: 1, appSecret: BENCH_APP_SECRET });
  let small: { events: number; seconds: number; peakMb: number }[] = [];
  let big: { events: number; seconds: number; peakMb: number };
  let buildSeconds: number;
  try {
    const templateEvents = await prepareCopies(sql);
    await lengthen(sql, templateEvents, SMALL_EVENTS);
    for (let i = 0; i < SMALL_REPLAYS; i++) small.push(await rebuild(databaseUrl));
    const building = performance.now();
    await lengthen(sql, templateEvents, BIG_EVENTS);
    buildSeconds = (performance.now() - building) / 1000;
    big = await rebuild(databaseUrl);
  } finally {
    await sql.end();
  }
  small = small.toSorted((a, b) => a.seconds - b.seconds);
  const middle = small[Math.floor(SMALL_REPLAYS / 2)]!;
  const rate = (replay: { events: number; seconds: number }) => replay.events / replay.seconds;
  const ratio = rate(big) / rate(middle);
  const results = {
    smallEvents: middle.events,
    smallSeconds: small.map((replay) => replay.seconds),
    smallEventsPerSecond: Math.round(rate(middle)),
    smallPeakMb: middle.peakMb,
    bigEvents: big.events,
    bigSeconds: big.seconds,
    bigEventsPerSecond: Math.round(rate(big)),
    bigPeakMb: big.peakMb,
    ratio: round(ratio, 2),
    buildSeconds: round(buildSeconds),
  };
  const rows: Row[] = [
    {
      figure: `rebuild of ${big.events} events: events/s vs the rebuild of ${middle.events} (middle of ${SMALL_REPLAYS})`,
      value: `${results.bigEventsPerSecond} / ${results.smallEventsPerSecond} = ${results.ratio}x (${big.seconds} s; small ${results.smallSeconds.join(' / ')} s)`,
      target: '>= 0.8x',
      met: ratio >= 0.8,
    },
    {
      figure: `rebuild of ${big.events} events: peak memory of its process`,
      value: `${big.peakMb} MB (${middle.peakMb} MB for ${middle.events} events)`,
      target: `< ${PEAK_RSS_LIMIT_MB} MB`,
      met: big.peakMb < PEAK_RSS_LIMIT_MB,
    },
  ];
  return { rows, results };
}
