import { randomBytes } from 'node:crypto';
import { connect } from '../src/api/database/connection';
import { call, createFlows, signUp } from './load';
import { migratedDatabase, serverEnv, startProcess } from './server-process';

/**
 * Two built servers' CPU per start and step run pair, taken at the same time: both run on one fresh database,
 * and 16 clients each start an execution and run its step again and again, each pair on the other server
 * than the one before, so whatever else loads the machine weighs on both alike. 3 s of that uncounted, then
 * `seconds` (10 unless told) counted; each server's CPU is `process.cpuUsage` over IPC, as `npm run bench`
 * reads it. Prints the pairs each served, each one's CPU per pair, and the second's over the first's.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
 *     npx tsx bench/cpu-ab.ts dist/cmp/old.js dist/cmp/new.js [seconds]
 *
 * Built files outside the repository cannot find its packages: copy each build within it (`dist/` is not
 * tracked). Run it again with the two swapped: whichever starts first may be favoured.
 */
const [first, second, secondsArg] = process.argv.slice(2);
const adminUrl = process.env.BENCH_DATABASE_URL;
if (!first || !second || !adminUrl) {
  console.error(
    'usage: BENCH_DATABASE_URL=<admin url> tsx bench/cpu-ab.ts <server.js> <server.js> [seconds]',
  );
  process.exit(2);
}
const seconds = Number(secondsArg ?? 10);
const admin = connect(adminUrl, { max: 1 });
const name = `cpu_ab_${randomBytes(5).toString('hex')}`;
try {
  const url = await migratedDatabase(admin, adminUrl, name);
  const servers = [first, second].map((file) => startProcess([file], serverEnv(url), { cpuUsage: true }));
  const bases = await Promise.all(servers.map((server) => server.url));
  const cookie = await signUp(bases[0]!);
  const flows = await createFlows(bases[0]!, cookie, 16);
  const load = async (duration: number) => {
    const pairs = [0, 0];
    const until = performance.now() + duration * 1000;
    await Promise.all(
      flows.map(async ({ flow, step }, client) => {
        for (let turn = client % 2; performance.now() < until; turn = 1 - turn) {
          const base = bases[turn]!;
          const execution = await call(base, cookie, 'POST', `/api/flows/${flow.id}/execute`);
          await call(base, cookie, 'POST', `/api/executions/${execution.id}/steps/${step.id}/execute`, {
            userInput: '',
          });
          pairs[turn]!++;
        }
      }),
    );
    return pairs;
  };
  await load(3);
  const before = await Promise.all(servers.map((server) => server.cpuMs()));
  const pairs = await load(seconds);
  const after = await Promise.all(servers.map((server) => server.cpuMs()));
  const cpuMsPerPair = pairs.map((count, i) => Number(((after[i]! - before[i]!) / count).toFixed(3)));
  const ratio = Number((cpuMsPerPair[1]! / cpuMsPerPair[0]!).toFixed(3));
  console.log(JSON.stringify({ servers: [first, second], pairs, cpuMsPerPair, ratio }));
  await Promise.all(servers.map((server) => server.stop()));
} finally {
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
