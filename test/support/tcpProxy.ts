/** A TCP proxy on 127.0.0.1 that a test can take down (every connection cut, new ones refused) and bring back. */

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/** A running proxy. */
export interface TcpProxy {
  /** `127.0.0.1:<port>` of the proxy. */
  address: string;
  /** Cuts every open connection and drops new ones until {@link TcpProxy.up}. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

/** Proxies to `target` (`host:port`). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const separator = target.lastIndexOf(':');
  const host = target.slice(0, separator);
  const port = Number(target.slice(separator + 1));
  const sockets = new Set<Socket>();
  let accepting = true;
  const server = createServer((client) => {
    if (!accepting) {
      client.destroy();
      return;
    }
    const upstream = connect(port, host);
    sockets.add(client);
    sockets.add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', cut);
      socket.on('close', cut);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    down() {
      accepting = false;
      cutAll();
    },
    up() {
      accepting = true;
    },
    close() {
      accepting = false;
      cutAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
