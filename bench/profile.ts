import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { connect } from '../src/api/database/connection';
import { lengthen } from './growth';
import { call, createFlows, runCommands, STEP_RUN_HEADERS, signUp } from './load';
import { measurePolling } from './polling';
import { migratedDatabase, serverEnv, startProcess } from './server-process';

/**
 * A CPU profile of a built server under commands: `node --cpu-prof` on it, 16 clients each starting an
 * execution and running its step, 2 s of warm-up and 10 s measured. Prints the pairs done in those 10 s and
 * the server's CPU per pair (`process.cpuUsage` over IPC, as `npm run bench` reads it), and leaves the
 * profile in the folder named (the file ending `.0.001.cpuprofile` is the server's main thread; tsx's loader
 * thread writes another).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
 *     npx tsx bench/profile.ts dist/server/server.js /tmp/profiles
 *
 * With `PROFILE_LOAD=growth`: one execution made 10,000 events long as the growth rows make it
 * (`bench/growth.ts`), then 40 step runs on it, in turns between the profiled server and a second one (so
 * each of the profiled server's runs finds its kept state out of date), then 40 on a new execution the same
 * way; prints each one's milliseconds a run. With `PROFILE_COLD=1` as well: the long execution is made by the
 * second server, and the profiled one runs one step on it (nothing of it kept), then one on a new execution.
 *
 * With `PROFILE_LOAD=polling`: after 10 s of those commands, polling one execution against the empty route,
 * in turns (`bench/polling.ts`, three rounds of 5 s in all), printing the server CPU per request of each.
 *
 * The database URL is an administrator's: a fresh database is made for the run and dropped after it. To
 * compare two commits, build each (`npm run build:server`, then copy `dist/server/server.js` aside) and run
 * them in turns, old, new, old, new: the machine's speed moves more between minutes than the difference.
 */
const [serverFile, profileDir] = process.argv.slice(2);
const adminUrl = process.env.BENCH_DATABASE_URL;
if (!serverFile || !profileDir || !adminUrl) {
  console.error(
    'usage: BENCH_DATABASE_URL=<admin url> tsx bench/profile.ts <built server.js> <profile folder>',
  );
  process.exit(2);
}
const admin = connect(adminUrl, { max: 1 });
const name = `profile_${randomBytes(5).toString('hex')}`;
try {
  const url = new URL(await migratedDatabase(admin, adminUrl, name));
  // PROFILE_SLOW_MS: PostgreSQL logs each statement of the run's database that takes this long or longer (to its
  // server log), without its parameters.
  const slowMs = process.env.PROFILE_SLOW_MS;
  if (slowMs !== undefined) {
    await admin.unsafe(`ALTER DATABASE ${name} SET log_min_duration_statement = ${Number(slowMs)}`);
    await admin.unsafe(`ALTER DATABASE ${name} SET log_parameter_max_length = 0`);
  }
  const server = startProcess([serverFile], serverEnv(url.toString()), {
    cpuUsage: true,
    node: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`],
  });
  const base = await server.url;
  const cookie = await signUp(base);
  const flows = await createFlows(base, cookie, 16);
  await runCommands(base, cookie, flows, 2);
  if (process.env.PROFILE_LOAD === 'growth') {
    const other = startProcess([serverFile], serverEnv(url.toString()));
    const otherBase = await other.url;
    const [flow] = flows;
    const newExecution = async () =>
      (await call(base, cookie, 'POST', `/api/flows/${flow!.flow.id}/execute`)).id as string;
    const run = (on: string, id: string) =>
      call(on, cookie, 'POST', `/api/executions/${id}/steps/${flow!.step.id}/execute`, {}, STEP_RUN_HEADERS);
    const inTurns = async (id: string, turns: number) => {
      const started = performance.now();
      for (let i = 0; i < turns; i++) await run(i % 2 === 0 ? base : otherBase, id);
      return Number(((performance.now() - started) / turns).toFixed(1));
    };
    const long = await newExecution();
    const cold = process.env.PROFILE_COLD === '1';
    for (let i = 0; i < 10; i++) await run(cold ? otherBase : base, long);
    const events = await lengthen(url.toString(), `execution-${long}`, 10_000);
    await run(otherBase, long);
    // PROFILE_COLD=1: the profiled server's only step run on the long execution is its first (nothing kept).
    if (!cold) await inTurns(long, 2);
    const msLong = await inTurns(long, cold ? 1 : 40);
    const msNew = await inTurns(await newExecution(), cold ? 1 : 40);
    const sql = connect(url.toString(), { max: 1 });
    const [snapshot] = await sql`
      SELECT octet_length(state::text) AS "jsonBytes", pg_column_size(state) AS "storedBytes"
      FROM snapshots WHERE stream_id = ${`execution-${long}`}`;
    await sql.end();
    console.log(JSON.stringify({ server: serverFile, events, msLong, msNew, snapshot }));
    await other.stop();
  } else if (process.env.PROFILE_LOAD === 'polling') {
    await runCommands(base, cookie, flows, 8);
    const empty = startProcess(['bench/empty-server.ts'], {}, { cpuUsage: true });
    const polled = await call(base, cookie, 'POST', `/api/flows/${flows[0]!.flow.id}/execute`);
    await call(base, cookie, 'POST', `/api/executions/${polled.id}/steps/${flows[0]!.step.id}/execute`, {});
    const polling = await measurePolling(
      { url: `${base}/api/executions/${polled.id}`, headers: { cookie }, cpu: server.cpuMs },
      { url: `${await empty.url}/empty`, cpu: empty.cpuMs },
      15,
    );
    console.log(JSON.stringify({ server: serverFile, polling }));
    await empty.stop();
  } else {
    const before = await server.cpuMs();
    const load = await runCommands(base, cookie, flows, 10);
    const used = (await server.cpuMs()) - before;
    const pairs = load.runLatencies.length;
    console.log(
      JSON.stringify({ server: serverFile, pairs, cpuMsPerPair: Number((used / pairs).toFixed(2)) }),
    );
  }
  await server.stop();
} finally {
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
