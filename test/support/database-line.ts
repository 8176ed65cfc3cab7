import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { freePort } from '../../src/api/database/embedded-postgres';

/** A TCP hop between the app and PostgreSQL that can be cut (every connection dropped, new ones refused). */
export class DatabaseLine {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  /** Takes connections again (a no-op while open). */
  async open() {
    if (this.server) return;
    this.server = createServer((client) => {
      const upstream = tcpConnect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.port, '127.0.0.1', resolve);
    });
  }

  async cut() {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/** An open line to the database at `databaseUrl`, and the URL of its near end. */
export async function lineTo(databaseUrl: string): Promise<{ line: DatabaseLine; url: string }> {
  const direct = new URL(databaseUrl);
  const line = new DatabaseLine(await freePort(), { host: direct.hostname, port: Number(direct.port) });
  await line.open();
  const url = new URL(databaseUrl);
  url.port = String(line.port);
  return { line, url: url.toString() };
}
