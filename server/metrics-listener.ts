/**
 * GET /metrics on its own listener (METRICS_HOST:METRICS_PORT), never on the public port: node:http, which
 * Node, Deno and Bun all serve, so the three programs answer scrapes alike.
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXPOSITION_TYPE } from '../adapters/prometheus/index.ts';

/** A listening metrics endpoint. */
export interface MetricsListener {
  /** e.g. http://127.0.0.1:9464 */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the text exposition at GET (and HEAD) /metrics; anything else is a plain 404 or 405.
 *
 * @param render The exposition, built per scrape.
 * @param port The port (0 picks one).
 * @param host The address to bind.
 */
export function listenMetrics(render: () => string, port: number, host: string): Promise<MetricsListener> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Use GET\n');
      return;
    }
    const body = Buffer.from(render());
    response.writeHead(200, { 'content-type': EXPOSITION_TYPE, 'content-length': body.length, 'cache-control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown}:${address.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
