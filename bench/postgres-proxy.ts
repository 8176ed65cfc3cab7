import net from 'node:net';

/**
 * A TCP relay between the server and PostgreSQL that counts the turns of each connection's conversation:
 * the client sending after it has heard from the database is one round trip (its first message included),
 * however many statements a turn pipelines and however many packets carry it.
 */
export interface PostgresProxy {
  /** `databaseUrl` with its host and port replaced by the relay's. */
  urlFor(databaseUrl: string): string;
  /** Round trips so far, over every connection. */
  roundTrips(): number;
  close(): Promise<void>;
}

/** Sees every turn's first bytes from the client, and every later packet of it (`turn` false). */
export type TurnWatcher = (connection: number, sent: Buffer, turn: boolean) => void;

export async function startPostgresProxy(databaseUrl: string, watch?: TurnWatcher): Promise<PostgresProxy> {
  const target = new URL(databaseUrl);
  const targetPort = Number(target.port || 5432);
  let turns = 0;
  let connections = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const connection = ++connections;
    const database = net.connect(targetPort, target.hostname);
    client.setNoDelay(true);
    database.setNoDelay(true);
    open.add(client).add(database);
    let heard = true;
    client.on('data', (chunk) => {
      if (heard) turns++;
      watch?.(connection, chunk, heard);
      heard = false;
      database.write(chunk);
    });
    database.on('data', (chunk) => {
      heard = true;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      database.destroy();
      open.delete(client);
      open.delete(database);
    };
    for (const socket of [client, database]) {
      socket.on('close', end);
      socket.on('error', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    urlFor(url) {
      const relayed = new URL(url);
      relayed.hostname = '127.0.0.1';
      relayed.port = String(port);
      // Through the relay's TCP port, never a Unix socket the URL may name.
      relayed.searchParams.delete('host');
      return relayed.toString();
    },
    roundTrips: () => turns,
    close() {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
