/**
 * What the event chain costs an append: the append figures of bench/append.ts on one database, with the
 * hashing trigger on and then off (the append is otherwise the same), alternating three times.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '../src/api/database/connection';
import { startEmbeddedPostgres } from '../src/api/database/embedded-postgres';
import { migrate } from '../src/api/database/migrate';
import { benchAppend } from './append';
import { BENCH_APP_SECRET } from './server-process';

const dir = await mkdtemp(path.join(tmpdir(), 'workbench-chain-bench-'));
await chmod(dir, 0o755);
const embedded = await startEmbeddedPostgres(path.join(dir, 'postgres'), { persistent: false });
const url = embedded.socketDirectory
  ? `${embedded.url}?host=${encodeURIComponent(embedded.socketDirectory)}`
  : embedded.url;
const sql = connect(url, { max: 1, appSecret: BENCH_APP_SECRET });
try {
  await migrate(sql);
  for (let round = 1; round <= 3; round++) {
    for (const chained of [true, false]) {
      await sql.unsafe(`ALTER TABLE events ${chained ? 'ENABLE' : 'DISABLE'} TRIGGER events_chain`);
      const a = await benchAppend(url, { seconds: 3 });
      console.log(
        `round ${round} ${chained ? 'chained  ' : 'unchained'}: ${Math.round(a.storeEventsPerSecond)} events/s single, ` +
          `${Math.round(a.batchEventsPerSecond)} events/s in batches of 10, raw ${Math.round(a.rawInsertsPerSecond)} tx/s`,
      );
    }
  }
} finally {
  await sql.end();
  await embedded.stop();
  await rm(dir, { recursive: true, force: true });
}
