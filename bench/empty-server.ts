import Fastify from 'fastify';
import { connect } from '../src/api/database/connection';
import { floorRoutes } from './floor';
import { BENCH_APP_SECRET } from './server-process';

// The baselines: a bare Fastify route that returns a small JSON body (for polling), and the floor routes
// that do a start's and a step run's database work and nothing else (for the commands), on
// FLOOR_DATABASE_URL. Its connections carry the event key, as the server's do: the floor's appends are chained
// by the same trigger.
const app = Fastify();
app.get('/empty', async () => ({ ok: true }));
const floorDatabase = process.env.FLOOR_DATABASE_URL;
const sql = floorDatabase ? connect(floorDatabase, { appSecret: BENCH_APP_SECRET }) : null;
if (sql) await floorRoutes(app, sql);
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`running at ${url}`);
process.on('SIGTERM', () => void stop());

async function stop() {
  await app.close();
  await sql?.end({ timeout: 5 });
  process.exit(0);
}
