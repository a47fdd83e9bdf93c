/**
 * The standalone server on node:http: the shared wiring of standalone.ts bound to a node:http server
 * with timeouts, a header-size limit, JSON answers to unparseable requests and a graceful stop.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { limitConnections } from '../adapters/node/connection-limits.ts';
import { createNodeListener, type NodeListener } from '../adapters/node/index.ts';
import { answerOddRequests } from '../adapters/node/odd-requests.ts';
import type { Clock, Logger } from '../core/ports/ports.ts';
import type { ServerConfig } from './config.ts';
import { connectionsCheckingInterval } from './http-limits.ts';
import { type BoundServer, type Standalone, startStandalone } from './standalone.ts';

/** How often a connection cap may be logged as reached: a flood must not flood the log too. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/** How long a stop waits for requests in flight before closing what is left. */
const STOP_GRACE_MS = 10_000;

/** The standalone server on node:http. */
export interface RunningServer extends Standalone {
  server: Server;
  /** Where the operator API listens (OPERATOR_PORT), or null. */
  operatorUrl: string | null;
}

/** The timeouts and header limit of both listeners (docs/configuration.md, HTTP server limits). */
function timeouts(limits: ServerConfig['http']) {
  return {
    headersTimeout: limits.headersTimeout,
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    maxHeaderSize: limits.maxHeaderSize,
    connectionsCheckingInterval: connectionsCheckingInterval(limits),
  };
}

/**
 * Caps a listener's connections (adapters/node/connection-limits.ts), each kind of refusal logged at most
 * once a minute.
 */
function capConnections(
  server: Server,
  caps: { perClient: number; total: number; exempt: ServerConfig['trustedProxies'] },
  clock: Clock,
  logger: Logger,
  listener: string,
): void {
  const refusalLogged = { 'per-client': -Infinity, total: -Infinity, evicted: -Infinity };
  limitConnections(server, {
    ...caps,
    now: () => clock.now(),
    onRefused: (peer, cap) => {
      if (clock.now() - refusalLogged[cap] < REFUSAL_LOG_INTERVAL_MS) return;
      refusalLogged[cap] = clock.now();
      const named = listener === 'public' ? {} : { listener };
      if (cap === 'evicted') {
        const fields = { cap: 'total', limit: caps.total, closed: peer, ...named };
        logger.warn('connection cap reached; a stalled connection of the client holding the most is closed for each new one', fields);
        return;
      }
      const limit = cap === 'total' ? caps.total : caps.perClient;
      logger.warn('connection cap reached; new connections over it are closed', { cap, limit, peer, ...named });
    },
  });
}

/**
 * The operator listener's total cap: a sixteenth of the public one (at least 8), within the file
 * descriptors MAX_CONNECTIONS leaves over, so that connections held on it (no token is needed to hold
 * one) never take what the public port needs.
 */
export function operatorConnectionCap(maxConnections: number): number {
  return Math.max(8, Math.floor(maxConnections / 16));
}

/**
 * The operator listener: the operator app on a node:http server of its own, at OPERATOR_HOST:OPERATOR_PORT,
 * with the public listener's timeouts and per-client cap, and a total cap of its own. Its client is the
 * socket's peer (no proxy header is believed there).
 */
async function listenOperator(
  running: Standalone,
  config: ServerConfig,
  logger: Logger,
  clock: Clock,
): Promise<{ url: string; close(): Promise<void> } | null> {
  if (!running.operator || !config.operator) return null;
  const server = createServer(timeouts(config.http));
  server.keepAliveTimeout = config.http.keepAliveTimeout;
  const caps = { perClient: config.http.maxConnectionsPerClient, total: operatorConnectionCap(config.http.maxConnections), exempt: null };
  capConnections(server, caps, clock, logger, 'operator');
  server.on(
    'request',
    createNodeListener(running.operator, { onError: (error) => logger.error('could not answer an operator request', { error: String(error) }) }),
  );
  const address = await listen(server, config.operator.port, config.operator.host);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}`, close: () => close(server) };
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
  const limits = config.http;
  const server = createServer({
    ...timeouts(limits),
    // A request without Host is answered by the listener, as JSON with the rate-limit headers.
    requireHostHeader: false,
  });
  server.keepAliveTimeout = limits.keepAliveTimeout;
  capConnections(server, { perClient: limits.maxConnectionsPerClient, total: limits.maxConnections, exempt: config.trustedProxies }, clock, logger, 'public');
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
      answerOddRequests(server, app, config.trustedProxies);
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
  let operator: Awaited<ReturnType<typeof listenOperator>>;
  try {
    operator = await listenOperator(running, config, logger, clock);
  } catch (error) {
    // An operator port in use stops the start like the public one.
    await running.stop();
    throw error;
  }
  if (!operator) return { ...running, server, operatorUrl: null };
  const listening = operator;
  return {
    ...running,
    server,
    operatorUrl: listening.url,
    stop: async () => {
      await listening.close();
      await running.stop();
    },
  };
}
