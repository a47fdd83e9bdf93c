/**
 * The standalone server on node:http: the shared wiring of standalone.ts bound to a node:http server
 * with timeouts, a header-size limit, JSON answers to unparseable requests and a graceful stop.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClientErrorListener } from '../adapters/node/client-error.ts';
import { createNodeListener, type NodeListener } from '../adapters/node/index.ts';
import type { Clock, Logger } from '../core/ports.ts';
import type { ServerConfig } from './config.ts';
import { startStandalone, type BoundServer, type Standalone } from './standalone.ts';

/** node:http limits: slow or oversized clients are cut off instead of holding sockets. */
export const HTTP_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16 * 1024,
};

/** How long a stop waits for requests in flight before closing what is left. */
const STOP_GRACE_MS = 10_000;

/** The standalone server on node:http. */
export interface RunningServer extends Standalone {
  server: Server;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
    // Keep-alive connections turn idle as their last answer goes out: close them as they do.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearTimeout(force);
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Starts the server on node:http.
 *
 * @param config The loaded configuration.
 * @param logger Where log lines go.
 * @param clock Where time comes from (tests inject one).
 * @returns The serving server.
 * @throws ConfigError when a setting is refused (before the port is bound).
 */
export async function startServer(config: ServerConfig, logger: Logger, clock: Clock = { now: () => Date.now() }): Promise<RunningServer> {
  const server = createServer({ ...HTTP_LIMITS });
  server.keepAliveTimeout = HTTP_LIMITS.keepAliveTimeout;
  const running = await startStandalone(config, logger, clock, async (whenApp): Promise<BoundServer> => {
    // Until the app is built, requests wait for it; then the listener takes over with no wrapper around it.
    const waiting = (request: IncomingMessage, response: ServerResponse) => {
      void whenListener.then((listener) => listener(request, response), () => response.destroy());
    };
    const whenListener = whenApp.then((app): NodeListener => {
      const listener = createNodeListener(app, {
        trustedProxies: config.trustedProxies,
        onError: (error) => logger.error('could not answer a request', { error: String(error) }),
      });
      server.on('clientError', createClientErrorListener(app));
      server.off('request', waiting);
      server.on('request', listener);
      return listener;
    });
    // Only waiting requests use this promise; a failed build is reported by startStandalone.
    whenListener.catch(() => undefined);
    server.on('request', waiting);
    const address = await listen(server, config.port, config.host);
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return { url: `http://${host}:${address.port}`, port: address.port, close: () => close(server) };
  });
  return { ...running, server };
}
