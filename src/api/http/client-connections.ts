import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Bounds the connections one client address holds open at once: past `most`, a new connection from it is
 * closed as soon as it is accepted, before any request is read. The reverse proxy trusted through
 * TRUST_PROXY carries every client's connections and is not bounded here (the proxy bounds its clients:
 * deploy/nginx.conf). `most` 0: no bound.
 */
export function boundConnectionsPerClient(server: Server, most: number, trustProxy: boolean | string[]) {
  if (most <= 0 || trustProxy === true) return;
  const trusted = trustProxy === false ? () => false : proxyAddr.compile(trustProxy);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || trusted(address, 0)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > most) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
