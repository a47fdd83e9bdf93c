/**
 * A TCP proxy on 127.0.0.1 between the server and its database, that a test can cut and restore:
 * "reset" is a database that went down (every connection reset, new ones reset as they are made); "silent"
 * is a network that stopped answering (nothing passes, nothing closes) until it heals and the held bytes
 * flow on.
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

export type Fault = 'reset' | 'silent';

export interface CuttableProxy {
  /** postgres://… of the database, through the proxy. */
  url: string;
  cut(fault: Fault): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
}

/**
 * Starts a proxy in front of a database URL.
 *
 * @param databaseUrl The real database.
 */
export async function cuttableProxy(databaseUrl: string): Promise<CuttableProxy> {
  const target = new URL(databaseUrl);
  const pairs = new Set<Pair>();
  let fault: Fault | null = null;
  let server: Server | null = null;
  let port = 0;

  const join = (pair: Pair) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    pair.upstream = upstream;
    const end = () => {
      pairs.delete(pair);
      pair.client.destroy();
      upstream.destroy();
    };
    for (const socket of [pair.client, upstream]) socket.on('error', end).on('close', end);
    pair.client.pipe(upstream);
    upstream.pipe(pair.client);
  };

  const listen = () =>
    new Promise<void>((resolve) => {
      const next = createServer((client) => {
        const pair: Pair = { client, upstream: null };
        pairs.add(pair);
        client.on('error', () => client.destroy());
        client.pause();
        if (fault === null) join(pair);
        else if (fault === 'reset') {
          // The database is down: the connection is reset as soon as it is made.
          pairs.delete(pair);
          client.resetAndDestroy();
        }
      });
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as AddressInfo).port;
        server = next;
        resolve();
      });
    });

  const closeServer = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });

  await listen();
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    async cut(kind) {
      fault = kind;
      if (kind === 'silent') {
        for (const { client, upstream } of pairs) {
          client.unpipe();
          upstream?.unpipe();
          client.pause();
          upstream?.pause();
        }
        return;
      }
      // The port stays ours: closing the server here and listening again on restore lost a race on a
      // busy machine, when another process took the freed port meanwhile (EADDRINUSE, an 'error' event
      // nobody heard: the test process died, before its finally dropped the test's schema).
      for (const { client, upstream } of pairs) {
        client.resetAndDestroy();
        upstream?.destroy();
      }
      pairs.clear();
    },
    async restore() {
      const was = fault;
      fault = null;
      if (was === 'reset') return;
      for (const pair of pairs) {
        if (!pair.upstream) join(pair);
        else {
          pair.client.pipe(pair.upstream);
          pair.upstream.pipe(pair.client);
        }
      }
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      pairs.clear();
      await closeServer();
    },
  };
}
