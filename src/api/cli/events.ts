import path from 'node:path';
import type { Sql } from 'postgres';
import { DATASET_STREAM_PREFIX } from '../../domain/dataset/events';
import { EXECUTION_STREAM_PREFIX } from '../../domain/execution/stream';
import { FLOW_STREAM_PREFIX, flowStreamId } from '../../domain/flow/events';
import { MASTER_STREAM_PREFIX } from '../../domain/master-mode/events';
import {
  EventStore,
  KEY_MISMATCH_CHECK,
  KEY_MISMATCH_MESSAGE,
  type RecordedEvent,
  type StreamCheck,
} from '../../eventstore';
import { executionStreamId } from '../../projections/project-execution-events';
import type { Actor } from '../access';
import { checkAuditLog, problemLine, readVerifierKey } from '../audit-log';
import { type Aggregate, CommandHandler } from '../commands/command-handler';
import { DEFAULT_RETRY_POLICY } from '../commands/retry-policy';
import { embeddedDatabaseUrl, embeddedPasswordFile } from '../database/embedded-postgres';
import { type OpenDatabase, openDatabase } from '../database/open-database';
import { DatasetsRepository, heldBy } from '../datasets';
import { executionAggregate } from '../executions';
import { flowAggregate } from '../flows';
import { masterAggregate } from '../master-mode';
import { ConfigError, parseEnvironment, savedAppSecret } from '../runtime/config';
import { WorkspacesRepository } from '../workspaces';
import { embeddedDatabaseOwner } from './embedded-database-owner';
import { eventJson, eventLines } from './event-line';
import {
  EVENTS_USAGE,
  type EventsRequest,
  parseEventsArguments,
  UsageError,
  type VerifyTarget,
} from './events-arguments';

/** Something the user can act on: printed as it is, without a stack. */
class Refusal extends Error {}

const STREAM_PAGE = 500;

type Print = (events: RecordedEvent[]) => Promise<void>;

/**
 * The aggregate a stream is the log of, by its name. A dataset's access is its flow's, where the flow is now:
 * read with the flow's row (none when the dataset or its flow is gone).
 */
async function aggregateOf(
  streamId: string,
  datasets: DatasetsRepository,
  // biome-ignore lint/suspicious/noExplicitAny: the aggregates differ in every type parameter; only their access is asked.
): Promise<Aggregate<any, any, any, any> | null> {
  if (streamId.startsWith(EXECUTION_STREAM_PREFIX)) return executionAggregate;
  if (streamId.startsWith(FLOW_STREAM_PREFIX)) return flowAggregate;
  if (streamId.startsWith(MASTER_STREAM_PREFIX)) return masterAggregate;
  if (streamId.startsWith(DATASET_STREAM_PREFIX)) {
    const flow = await datasets.flowOf(streamId.slice(DATASET_STREAM_PREFIX.length)).catch(() => null);
    return flow && heldBy(flow.holder);
  }
  return null;
}

/**
 * Whether `actor` may read a stream, as the app decides it: loaded through the command handler, which asks
 * the access rule (the record's owner, or the actor's role in its workspace). Learnt once per stream.
 */
function readableBy(store: EventStore, sql: Sql, actor: Actor): (streamId: string) => Promise<boolean> {
  const commands = new CommandHandler(store, DEFAULT_RETRY_POLICY, new WorkspacesRepository(sql));
  const datasets = new DatasetsRepository(sql);
  const known = new Map<string, boolean>();
  return async (streamId) => {
    if (actor === null) return true;
    let readable = known.get(streamId);
    if (readable === undefined) {
      const aggregate = await aggregateOf(streamId, datasets);
      readable =
        aggregate !== null &&
        (await commands.load(aggregate, streamId.slice(aggregate.streamPrefix.length), actor).then(
          () => true,
          () => false,
        ));
      known.set(streamId, readable);
    }
    return readable;
  };
}

function printer(store: EventStore, sql: Sql, { json, as }: { json: boolean; as: Actor }): Print {
  const format = json ? eventJson : eventLines();
  const readable = readableBy(store, sql, as);
  return async (events) => {
    const shown: RecordedEvent[] = [];
    for (const event of events) if (await readable(event.streamId)) shown.push(event);
    if (shown.length > 0) process.stdout.write(`${shown.map(format).join('\n')}\n`);
  };
}

/** DATABASE_URL, else the embedded database, unless the server (or another tool) already runs on it. */
async function openLog(): Promise<OpenDatabase> {
  const parsed = parseEnvironment(process.env);
  const config = { ...parsed, appSecret: await savedAppSecret(parsed) };
  if (!config.databaseUrl) {
    const owner = await embeddedDatabaseOwner(config.dataDir);
    if (owner) {
      // The password is read by the shell from its file, so it never shows on screen or in scrollback.
      const passwordFile = embeddedPasswordFile(path.join(config.dataDir, 'postgres'));
      const url = owner.port ? embeddedDatabaseUrl(owner.port, `$(cat '${passwordFile}')`) : null;
      throw new Refusal(
        `The embedded PostgreSQL in ${config.dataDir}/postgres is in use by another process (pid ${owner.pid}, ` +
          'most likely the server): one process at a time owns it, so this tool cannot open it.\n' +
          (url
            ? `Point the tool at the running database instead:\n  DATABASE_URL="${url}" npm run -s events -- ...\n` +
              'or stop the server first.'
            : 'Stop the server first, or run it with DATABASE_URL and give the tool the same DATABASE_URL.'),
      );
    }
  }
  try {
    return await openDatabase(config);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code && ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'EHOSTUNREACH', '28P01', '3D000'].includes(code)) {
      const where = config.databaseUrl
        ? 'DATABASE_URL'
        : `the embedded PostgreSQL in ${config.dataDir}/postgres`;
      throw new Refusal(`Cannot open the database of ${where}: ${(error as Error).message}`);
    }
    throw error;
  }
}

/** Prints a stream page by page; answers its version, 0 for no such stream. */
async function showStream(store: EventStore, streamId: string, print: Print) {
  let after = 0;
  for (;;) {
    const { version, events } = await store.readStream(streamId, { after, limit: STREAM_PAGE });
    await print(events);
    if (events.length < STREAM_PAGE) return version;
    after = events.at(-1)!.streamPosition;
  }
}

/** An id is an execution's or a flow's: both streams are looked up (one the reader may not read is missing). */
async function show(
  store: EventStore,
  id: string,
  print: Print,
  readable: (streamId: string) => Promise<boolean>,
) {
  let versions = 0;
  for (const streamId of [executionStreamId(id), flowStreamId(id)]) {
    if (await readable(streamId)) versions += await showStream(store, streamId, print);
  }
  if (versions === 0) throw new Refusal(`No execution or flow ${id} in the event log.`);
}

async function command(
  store: EventStore,
  commandId: string,
  print: Print,
  readable: (streamId: string) => Promise<boolean>,
) {
  const events = await store.findCommand(commandId);
  const shown = [];
  for (const event of events ?? []) if (await readable(event.streamId)) shown.push(event);
  if (shown.length === 0) throw new Refusal(`No events of command ${commandId} in the event log.`);
  await print(shown);
}

/**
 * Runs until the process is ended (Ctrl+C, SIGTERM): the usual signal exit is the right one for a reader, and
 * the embedded PostgreSQL, when this process started it, is stopped by its own exit hook. Events appended by
 * any process reach the tailer through the gap-safe feed.
 */
async function tail(store: EventStore, print: Print): Promise<never> {
  const tailer = store.tail({
    from: 'now',
    onError: (error) => console.error(`Reading the log failed (retrying): ${(error as Error).message}`),
  });
  tailer.onEvents((events) => {
    void print(events).catch((error) => console.error(`Reading the log failed: ${(error as Error).message}`));
  });
  await tailer.start();
  console.error('Following the event log from now on (Ctrl+C to stop).');
  return new Promise<never>(() => {});
}

/** One stream's check as one line (or one JSON object with --json). */
function checkLine(check: StreamCheck, json: boolean): string {
  if (json) return JSON.stringify(check);
  if ('keyMismatch' in check)
    return ['KEY     ', check.streamId, `events=${check.events}`, KEY_MISMATCH_CHECK].join('  ');
  const found = check.verified ? `head=${check.head ?? '-'}` : `first-bad-position=${check.firstBadPosition}`;
  return [check.verified ? 'verified' : 'CHANGED ', check.streamId, `events=${check.events}`, found].join(
    '  ',
  );
}

/**
 * Checks the hashes of the streams named (an execution's and a flow's by their id, or one stream), or of every
 * stream; prints one line each. Answers whether every one checked out.
 */
async function verify(
  store: EventStore,
  target: VerifyTarget | null,
  json: boolean,
  readable: (streamId: string) => Promise<boolean>,
): Promise<boolean> {
  let checks: StreamCheck[];
  if (target === null) checks = await store.verifyAllStreams();
  else {
    const streamIds =
      'id' in target ? [executionStreamId(target.id), flowStreamId(target.id)] : [target.streamId];
    checks = [];
    for (const streamId of streamIds) {
      const check = await store.verifyStream(streamId);
      if (check) checks.push(check);
    }
  }
  const shown: StreamCheck[] = [];
  for (const check of checks) if (await readable(check.streamId)) shown.push(check);
  if (target !== null && shown.length === 0) {
    const what = 'id' in target ? `execution or flow ${target.id}` : `stream ${target.streamId}`;
    throw new Refusal(`No ${what} in the event log.`);
  }
  if (shown.length > 0) process.stdout.write(`${shown.map((check) => checkLine(check, json)).join('\n')}\n`);
  const broken = shown.filter((check) => !check.verified).length;
  const keyMismatch = shown.some((check) => 'keyMismatch' in check);
  if (keyMismatch) console.error(`${KEY_MISMATCH_MESSAGE}: the streams cannot be checked with this key.`);
  else if (!json) {
    console.error(
      broken === 0
        ? `${shown.length} stream(s) verified.`
        : `${broken} of ${shown.length} stream(s) changed since they were appended.`,
    );
  }
  return broken === 0;
}

/**
 * Checks the whole audit log against its checkpoints with the log's public key (no secret): prints each
 * problem on a line, or what was verified. Answers whether it all held.
 */
async function auditLog(sql: Sql, keyFile: string | null, json: boolean): Promise<boolean> {
  const config = parseEnvironment(process.env);
  const file = keyFile ?? config.auditSigningKeyFile;
  let key: string;
  try {
    key = await readVerifierKey(file);
  } catch (error) {
    throw new Refusal(`No audit log key in ${file}: ${(error as Error).message}`);
  }
  const check = await checkAuditLog(sql, key);
  if (json) process.stdout.write(`${JSON.stringify(check)}\n`);
  else {
    for (const problem of check.problems) process.stdout.write(`${problemLine(problem)}\n`);
    if (check.moreProblems > 0) process.stdout.write(`… and ${check.moreProblems} more\n`);
    const latest = check.latest
      ? `checkpoint ${check.latest.size} of ${check.latest.at}`
      : 'no checkpoint yet';
    console.error(
      check.problems.length === 0
        ? `audit log verified: ${check.leaves} leaves, ${check.checkpointsVerified} checkpoint(s) hold, latest ${latest}.`
        : `audit log NOT verified: ${check.problems.length + check.moreProblems} problem(s); ${check.leaves} leaves, latest ${latest}.`,
    );
  }
  return check.problems.length === 0;
}

async function run(request: Exclude<EventsRequest, { command: 'help' }>) {
  if (request.command === 'audit-log') {
    const database = await openLog();
    try {
      if (!(await auditLog(database.sql, request.key, request.json))) process.exitCode = 1;
    } finally {
      await database.close();
    }
    return;
  }
  if (request.command === 'verify' && !(await savedAppSecret(parseEnvironment(process.env)))) {
    throw new Refusal(
      "verify needs the server's APP_SECRET (or DATA_DIR's app-secret file): the events' hashes are keyed with it.",
    );
  }
  const database = await openLog();
  const store = new EventStore(database.sql);
  const print = printer(store, database.sql, request);
  const readable = readableBy(store, database.sql, request.as);
  if (request.command === 'tail') return tail(store, print);
  try {
    if (request.command === 'show') await show(store, request.id, print, readable);
    else if (request.command === 'verify') {
      if (!(await verify(store, request.target, request.json, readable))) process.exitCode = 1;
    } else await command(store, request.commandId, print, readable);
  } finally {
    await database.close();
  }
}

async function main() {
  const request = parseEventsArguments(process.argv.slice(2));
  if (request.command === 'help') {
    console.log(EVENTS_USAGE);
    return;
  }
  await run(request);
}

// Output piped into `head` closes early: that ends the tool, it is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(error.message);
    process.exit(2);
  }
  console.error(error instanceof Refusal || error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
