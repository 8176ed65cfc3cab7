import { checkProjections, type ReadModelDifference } from '../../projections/check';
import { connect } from '../database/connection';
import { openDatabase } from '../database/open-database';
import { ConfigError, loadConfig } from '../runtime/config';

/** The most characters of a value a line shows. */
const SHOWN = 80;

/**
 * `npm run -s projections:check`: replays the whole log and compares every read model with it, writing
 * nothing. One line per difference and exit 1, or a summary and exit 0.
 */
async function main() {
  const config = await loadConfig();
  const database = await openDatabase(config);
  // One connection: the replay's scratch tables are its session's.
  const sql = connect(database.url, { max: 1, noDelay: true, appSecret: config.appSecret });
  try {
    const started = performance.now();
    const { differences, events, rows } = await checkProjections(sql);
    for (const difference of differences) console.log(differenceLine(difference));
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    if (differences.length > 0) {
      console.log(
        `${differences.length} differences from the log (${events} events replayed in ${seconds} s).`,
      );
      process.exitCode = 1;
    } else {
      console.log(
        `The read models are as the log gives them: ${events} events, ${rows} rows, in ${seconds} s.`,
      );
    }
  } finally {
    await sql.end({ timeout: 5 });
    await database.close();
  }
}

/** `table key column: expected …, found …`, each value shortened around where the two first differ. */
function differenceLine({ table, key, column, expected, found }: ReadModelDifference): string {
  if (found === undefined) return `${table} ${key}: expected a row, found none`;
  if (expected === undefined) return `${table} ${key}: found a row the log does not give`;
  const [shownExpected, shownFound] = shortened(
    JSON.stringify(expected) ?? 'null',
    JSON.stringify(found) ?? 'null',
  );
  return `${table} ${key} ${column}: expected ${shownExpected}, found ${shownFound}`;
}

/** Both texts cut to SHOWN characters from a little before the first character where they differ. */
function shortened(a: string, b: string): [string, string] {
  let first = 0;
  while (first < a.length && a[first] === b[first]) first++;
  const from = Math.max(0, first - 20);
  const cut = (text: string) =>
    `${from > 0 ? '…' : ''}${text.slice(from, from + SHOWN)}${text.length > from + SHOWN ? '…' : ''}`;
  return [cut(a), cut(b)];
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
