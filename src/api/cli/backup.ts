import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, restoreBackup, writeBackup } from '../database/backup';
import { connect } from '../database/connection';
import {
  embeddedDatabaseUrl,
  embeddedPasswordFile,
  startEmbeddedPostgres,
} from '../database/embedded-postgres';
import { openDatabase } from '../database/open-database';
import { ConfigError, loadConfig } from '../runtime/config';
import { embeddedDatabaseOwner } from './embedded-database-owner';

const USAGE = `usage:
  npm run backup -- <file>                   one consistent snapshot of everything, the server running or not
  npm run restore -- <file> [--other-secret] into an empty database (DATABASE_URL) or a new DATA_DIR

The database is DATABASE_URL, else the embedded PostgreSQL in DATA_DIR (the running server's, if it runs).
Keep APP_SECRET with the backup: it seals the users' own API keys and signs their sessions.`;

class UsageError extends Error {}

type Request = { command: 'help' } | { command: 'backup' | 'restore'; file: string; otherSecret: boolean };

function parse(argv: string[]): Request {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'other-secret': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const [command, file, ...rest] = positionals;
  if (values.help) return { command: 'help' };
  if ((command !== 'backup' && command !== 'restore') || !file || rest.length > 0)
    throw new UsageError(USAGE);
  return { command, file: path.resolve(file), otherSecret: values['other-secret'] };
}

/** The running embedded database's URL, when a server (or another tool) owns DATA_DIR's cluster now. */
async function runningEmbeddedUrl(dataDir: string): Promise<string | null> {
  const owner = await embeddedDatabaseOwner(dataDir);
  if (!owner?.port) return null;
  const password = (await readFile(embeddedPasswordFile(path.join(dataDir, 'postgres')), 'utf8')).trim();
  return embeddedDatabaseUrl(owner.port, password);
}

async function backup(file: string) {
  const config = await loadConfig();
  const running = config.databaseUrl ? null : await runningEmbeddedUrl(config.dataDir);
  const database = running ? null : await openDatabase(config);
  const sql = connect(running ?? database!.url, { max: 2, appSecret: config.appSecret });
  try {
    const rows = await writeBackup(sql, file, config.appSecret);
    const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
    console.log(
      `Backed up ${total} rows of ${Object.keys(rows).length} tables (${rows.events ?? 0} events) to ${file}.`,
    );
  } finally {
    await sql.end({ timeout: 5 });
    await database?.close();
  }
}

async function restore(file: string, otherSecret: boolean) {
  const config = await loadConfig();
  let url = config.databaseUrl;
  let embedded: Awaited<ReturnType<typeof startEmbeddedPostgres>> | null = null;
  if (!url) {
    if (await embeddedDatabaseOwner(config.dataDir))
      throw new BackupError(
        `A server runs on ${config.dataDir}: stop it, and restore into a new DATA_DIR (or an empty DATABASE_URL).`,
      );
    embedded = await startEmbeddedPostgres(path.join(config.dataDir, 'postgres'));
    url = embedded.url;
  }
  const sql = connect(url, {
    max: 2,
    socketDirectory: embedded?.socketDirectory,
    appSecret: config.appSecret,
  });
  try {
    const { rows, sameSecret } = await restoreBackup(sql, file, {
      appSecret: config.appSecret,
      allowAnother: otherSecret,
    });
    const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
    console.log(
      `Restored ${total} rows of ${Object.keys(rows).length} tables (${rows.events ?? 0} events) from ${file}.`,
    );
    if (!sameSecret)
      console.log(
        "APP_SECRET differs from the backup's: own API keys must be added again, and everyone signs in again. " +
          "The events' hashes no longer check under it: the server starts on this database only with ALLOW_KEY_MISMATCH=1.",
      );
  } finally {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
  }
}

async function main() {
  const request = parse(process.argv.slice(2));
  if (request.command === 'help') return console.log(USAGE);
  if (request.command === 'backup') return backup(request.file);
  return restore(request.file, request.otherSecret);
}

main().catch((error) => {
  if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(error instanceof UsageError ? error.message : `${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  console.error(error instanceof BackupError || error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
