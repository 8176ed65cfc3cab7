import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import postgres from 'postgres';
import { connect } from '../src/api/database/connection';
import { migrate } from '../src/api/database/migrate';
import { createFlows, runCommands, signUp } from './load';

/**
 * A CPU profile of a built server under commands: `node --cpu-prof` on it, 16 clients each starting an
 * execution and running its step, 2 s of warm-up and 10 s measured. Prints the pairs done in those 10 s and
 * the server's CPU per pair (from /proc, so Linux only), and leaves the profile in the folder named.
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
 *     npx tsx bench/profile.ts dist/server/server.js /tmp/profiles
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
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
const name = `profile_${randomBytes(5).toString('hex')}`;
await admin.unsafe(`CREATE DATABASE ${name}`);
try {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const migrating = connect(url.toString());
  await migrate(migrating);
  await migrating.end();
  const server = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`, serverFile],
    {
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        PORT: '0',
        LOG_LEVEL: 'warn',
        GEMINI_API_KEY: '',
        MODEL_CALLS_PER_MINUTE: '0',
        FREE_STEP_ALLOWANCE: '1000000000',
        APP_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const base = await new Promise<string>((resolve, reject) => {
    let output = '';
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${output}`)));
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    server.stdout!.on('data', read);
    server.stderr!.on('data', read);
  });
  /** The server's CPU time so far (user + system), in ms, at the kernel's 10 ms tick. */
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const cookie = await signUp(base);
  const flows = await createFlows(base, cookie, 16);
  await runCommands(base, cookie, flows, 2);
  const before = cpuMs();
  const load = await runCommands(base, cookie, flows, 10);
  const used = cpuMs() - before;
  const pairs = load.runLatencies.length;
  console.log(JSON.stringify({ server: serverFile, pairs, cpuMsPerPair: Number((used / pairs).toFixed(2)) }));
  server.removeAllListeners('exit');
  await new Promise<void>((resolve) => {
    server.once('exit', () => resolve());
    server.kill('SIGTERM');
  });
} finally {
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
