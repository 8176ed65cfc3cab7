import { parseArgs } from 'node:util';
import { z } from 'zod';
import { requestedId } from '../../domain/record-id';

/** `as`: the user whose eyes the tool reads with (only streams they may read); null: the operator's, all. */
interface Reading {
  json: boolean;
  as: string | null;
}

export type EventsRequest =
  | { command: 'help' }
  | ({ command: 'tail' } & Reading)
  /** `id` names an execution or a flow: both kinds of stream are looked up. */
  | ({ command: 'show'; id: string } & Reading)
  | ({ command: 'command'; commandId: string } & Reading)
  /** `target`: an execution or flow id (both kinds looked up), a stream id, or null for every stream. */
  | ({ command: 'verify'; target: VerifyTarget | null } & Reading)
  /** `key`: a file with the audit log's verifier key; null: the key of the server's signing key file. */
  | { command: 'audit-log'; key: string | null; json: boolean };

export type VerifyTarget = { id: string } | { streamId: string };

/** A command line the CLI cannot act on; the message says what to type instead. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const EVENTS_USAGE = `Usage: npm run -s events -- <command> [--json]

Reads the event log of the database the server uses (DATABASE_URL, else the embedded PostgreSQL in
DATA_DIR/postgres).

Commands:
  tail                     follow the log from now on, every stream, until Ctrl+C
  show <id>                every event of one execution or flow, by its id, in stream order
  command <commandId>      the events one command appended, across streams
  verify <id>              check the hashes of one execution's or flow's events (or of a stream, by its id);
                           exits 1 when any event was changed, removed or reordered
  verify --all             the same for every stream
  audit-log [--key <file>] check the whole signed audit log: every leaf against its event and every
                           checkpoint against the leaves; exits 1 naming what was deleted, changed or cut
  help                     this text

Options:
  --json                   one JSON object per line instead of one text line per event
  --as <userId>            only the streams that user may read, as the app would show them to them
  --all                    verify: every stream
  --key <file>             audit-log: the log's public key (a verifier key, as GET /api/audit/public-key
                           gives it); by default the one of the server's signing key (AUDIT_SIGNING_KEY,
                           else DATA_DIR/audit-key)
  -h, --help               this text

A text line reads: time  stream#position  type  actor=<userId>  command=<commandId>  summary.
A verify line reads: verified|CHANGED  stream  events=<count>  head=<hash> | first-bad-position=<position>.
verify needs the server's APP_SECRET (or DATA_DIR's app-secret file): the hashes are keyed with it.
audit-log needs no secret: it trusts the public key only.
The embedded PostgreSQL is owned by one process at a time: while the server runs on it, stop the server
or point DATABASE_URL at the server's database.`;

const executionOrFlowId = requestedId(
  'an execution or flow id is a uuid, as in execution-<uuid> and flow-<uuid> streams',
);
const userId = requestedId("a user id is a uuid, as the actor=<userId> of the tool's lines");
/** A stream id as the log names streams: a kind, a dash, the record's id. */
const streamId = z
  .string()
  .regex(/^[a-z][a-z-]*-[0-9a-f-]{36}$/, 'a stream id reads like execution-<uuid> or flow-<uuid>');

// The same rule as the Idempotency-Key header that may name a command.
const commandId = z
  .string()
  .trim()
  .min(1, 'a command id is not blank')
  .max(200, 'a command id has at most 200 characters');

function parsed<T>(schema: z.ZodType<T>, value: string | undefined, what: string): T {
  if (value === undefined) throw new UsageError(`Missing ${what}.\n\n${EVENTS_USAGE}`);
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new UsageError(`Malformed ${what} '${value}': ${result.error.issues[0]?.message ?? 'invalid'}.`);
  }
  return result.data;
}

/** Reads `process.argv.slice(2)`. */
export function parseEventsArguments(argv: readonly string[]): EventsRequest {
  let values: { json?: boolean; help?: boolean; as?: string; all?: boolean; key?: string };
  let words: string[];
  try {
    ({ values, positionals: words } = parseArgs({
      args: [...argv],
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        as: { type: 'string' },
        all: { type: 'boolean' },
        key: { type: 'string' },
      },
      allowPositionals: true,
    }));
  } catch (error) {
    // Node's first sentence names the option ("Unknown option '--yaml'."); its advice on '--' does not apply.
    const [said] = (error as Error).message.split(/(?<=\.) /);
    throw new UsageError(`${said}\n\n${EVENTS_USAGE}`);
  }
  if (values.help) return { command: 'help' };
  const reading: Reading = {
    json: values.json === true,
    as: values.as === undefined ? null : parsed(userId, values.as, 'user id of --as'),
  };
  const [command, argument, ...rest] = words;
  const expected = command === 'show' || command === 'command' || command === 'verify' ? 1 : 0;
  if (rest.length > 0 || (expected === 0 && argument !== undefined)) {
    throw new UsageError(`Too many arguments for '${command}'.\n\n${EVENTS_USAGE}`);
  }
  if (values.all && command !== 'verify') {
    throw new UsageError(`--all is for 'verify' only.\n\n${EVENTS_USAGE}`);
  }
  if (values.key !== undefined && command !== 'audit-log') {
    throw new UsageError(`--key is for 'audit-log' only.\n\n${EVENTS_USAGE}`);
  }
  switch (command) {
    case undefined:
    case 'help':
      return { command: 'help' };
    case 'tail':
      return { command: 'tail', ...reading };
    case 'show':
      return { command: 'show', id: parsed(executionOrFlowId, argument, 'execution or flow id'), ...reading };
    case 'command':
      return { command: 'command', commandId: parsed(commandId, argument, 'command id'), ...reading };
    case 'verify': {
      if (values.all && argument !== undefined)
        throw new UsageError(`verify takes an id or --all, not both.\n\n${EVENTS_USAGE}`);
      if (argument === undefined) return { command: 'verify', target: null, ...reading };
      const target: VerifyTarget = executionOrFlowId.safeParse(argument).success
        ? { id: argument }
        : { streamId: parsed(streamId, argument, 'execution, flow or stream id') };
      return { command: 'verify', target, ...reading };
    }
    case 'audit-log':
      if (values.as !== undefined) throw new UsageError(`--as is not for 'audit-log'.\n\n${EVENTS_USAGE}`);
      return { command: 'audit-log', key: values.key ?? null, json: reading.json };
    default:
      throw new UsageError(`Unknown command '${command}'.\n\n${EVENTS_USAGE}`);
  }
}
