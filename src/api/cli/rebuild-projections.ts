import { EventStore } from '../../eventstore';
import { rebuildProjections } from '../../projections/rebuild';
import { connect } from '../database/connection';
import { openDatabase } from '../database/open-database';
import { ConfigError, loadConfig } from '../runtime/config';

/** `npm run projections:rebuild`: empties the read models and replays the whole event log into them. */
async function main() {
  const config = await loadConfig();
  const database = await openDatabase(config);
  // A pool of its own for the rebuild's COPYs (see ConnectOptions.noDelay).
  const sql = connect(database.url, { max: 4, noDelay: true, appSecret: config.appSecret });
  try {
    const store = new EventStore(sql);
    const started = performance.now();
    const count = await rebuildProjections(sql, store);
    const seconds = (performance.now() - started) / 1000;
    // resourceUsage's maxRSS is in kilobytes: the process's peak resident memory, start-up included.
    const peakMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(
      `Rebuilt the read models from ${count} events in ${seconds.toFixed(2)} s; peak memory ${peakMb} MB.`,
    );
  } finally {
    await sql.end({ timeout: 5 });
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
