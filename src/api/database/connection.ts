import { once } from 'node:events';
import net from 'node:net';
import postgres, { type Sql } from 'postgres';
import { eventChainSettings } from '../event-chain/event-chain-key';

export interface ConnectOptions {
  /** The most connections the pool opens (DATABASE_POOL_SIZE's default when not given). */
  max?: number | undefined;
  /** The directory of a local server's Unix socket (the embedded one's): used with the URL's port, not its host. */
  socketDirectory?: string | null | undefined;
  /**
   * Every message sent at once (TCP_NODELAY). For COPY, whose data and end leave as two writes: Nagle's
   * algorithm would hold the end until the server acknowledges the data, which it delays (40 ms per COPY on
   * Linux). A Unix socket has no such delay.
   */
  noDelay?: boolean;
  /**
   * APP_SECRET, whose derived event key every session of the pool carries: without it a session can read the
   * event log but neither append to it nor check its hashes.
   */
  appSecret?: string | undefined;
}

/** A pool's size unless DATABASE_POOL_SIZE says otherwise: connections are opened only as load needs them. */
export const DEFAULT_POOL_SIZE = 20;

/**
 * The one way the server opens PostgreSQL: snake_case columns arrive as camelCase properties and
 * camelCase keys of `sql(object)` helpers become snake_case columns.
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  const given = socketDirectoryIn(url);
  const socketDirectory = options.socketDirectory ?? given.socketDirectory;
  const sql = postgres(given.url, {
    max: options.max ?? DEFAULT_POOL_SIZE,
    ...(socketDirectory ? { host: socketDirectory } : {}),
    // Column names only: postgres.camel would also rename the keys inside every json and jsonb value
    // (a step label `my_label` read back as `myLabel`, and a key ending in `_` an error), and walk each one.
    transform: { column: { from: postgres.toCamel, to: postgres.fromCamel } },
    onnotice: () => {},
    // After a connection fails, postgres.js waits before that connection's next attempt, longer after every
    // failure in a row (by default up to 20 s), and the queries given to it wait as long: while the database
    // is away a request would take that long to answer 503 (and nginx asks three instances), and once it is
    // back requests would go on waiting or failing for as long. A quarter second at most here: a refused
    // connection costs a database that is away nothing, and one starting up refuses it at once (57P03).
    backoff: reconnectDelaySeconds,
    ...(options.appSecret ? { connection: eventChainSettings(options.appSecret) } : {}),
    // int8 (positions, counts) as numbers: they stay far below 2^53.
    types: { bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: Number } },
  });
  // postgres.js opens a connection at its first statement, with the pool's options: none is open yet. Its
  // `socket` option (a connected socket, made by us) is not in its typings.
  if (options.noDelay) Object.assign(sql.options, { socket: connectedAtOnce });
  return sql;
}

/** Seconds before a connection's next attempt after `failures` in a row: 0.1, 0.2, then 0.25. */
export const reconnectDelaySeconds = (failures: number) => Math.min(0.05 * 2 ** failures, 0.25);

/**
 * A URL's `?host=/directory`, as libpq reads it: the server's Unix socket in that directory (its file named by
 * the URL's port), for a PostgreSQL on the same machine: no TCP stack between the server and its database.
 * The parameter is taken out of the URL, which postgres.js would otherwise send as a setting.
 */
export function socketDirectoryIn(url: string): { url: string; socketDirectory: string | null } {
  const at = url.indexOf('?');
  if (at === -1) return { url, socketDirectory: null };
  const query = new URLSearchParams(url.slice(at + 1));
  const host = query.get('host');
  if (host === null || !host.startsWith('/')) return { url, socketDirectory: null };
  query.delete('host');
  const rest = query.toString();
  return { url: url.slice(0, at) + (rest ? `?${rest}` : ''), socketDirectory: host };
}

async function connectedAtOnce({
  host,
  port,
  path,
}: {
  host: string[];
  port: number[];
  path: string | false;
}) {
  const socket = path ? net.connect(path) : net.connect({ host: host[0]!, port: port[0]!, noDelay: true });
  await once(socket, 'connect');
  return socket;
}
