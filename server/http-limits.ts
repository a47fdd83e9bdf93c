/**
 * The HTTP server's limits: timeouts, header size and connection caps, from the environment.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';

/** node:http limits: slow or oversized clients are cut off instead of holding sockets. */
export const HTTP_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16 * 1024,
};

/** Open connections one client address (an IPv6 /64) may hold; trusted proxies are exempt. */
const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;

/** The total cap when the file-descriptor limit cannot be read. */
const FALLBACK_MAX_CONNECTIONS = 4096;

/** The limits the standalone server applies. */
export interface HttpLimits {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  maxHeaderSize: number;
  maxConnectionsPerClient: number;
  /** Open connections in total; past it new ones are closed at once. */
  maxConnections: number;
}

/** The soft limit on open files of this process (Linux), or null when it cannot be read. */
export function fileDescriptorLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/**
 * The default total cap: the file-descriptor limit less a reserve (a tenth, at least 128) for the
 * database, the data directory, logs and the answers themselves.
 */
export function defaultMaxConnections(fdLimit: number | null): number {
  if (fdLimit === null) return FALLBACK_MAX_CONNECTIONS;
  return Math.max(1, fdLimit - Math.max(128, Math.ceil(fdLimit / 10)));
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new ConfigError(`${name} must be a whole number of at least 1, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/**
 * Reads the limits from the environment.
 *
 * @param env The process environment.
 * @param fdLimit The process's limit on open files, when known.
 * @throws ConfigError naming the variable that is not a positive whole number, or a headers timeout
 *   longer than the request timeout.
 */
export function httpLimits(env: NodeJS.ProcessEnv, fdLimit: number | null = fileDescriptorLimit()): HttpLimits {
  const limits: HttpLimits = {
    headersTimeout: positiveInteger(env, 'HTTP_HEADERS_TIMEOUT_MS', HTTP_LIMITS.headersTimeout),
    requestTimeout: positiveInteger(env, 'HTTP_REQUEST_TIMEOUT_MS', HTTP_LIMITS.requestTimeout),
    keepAliveTimeout: positiveInteger(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', HTTP_LIMITS.keepAliveTimeout),
    maxHeaderSize: HTTP_LIMITS.maxHeaderSize,
    maxConnectionsPerClient: positiveInteger(env, 'MAX_CONNECTIONS_PER_CLIENT', DEFAULT_MAX_CONNECTIONS_PER_CLIENT),
    maxConnections: positiveInteger(env, 'MAX_CONNECTIONS', defaultMaxConnections(fdLimit)),
  };
  if (limits.headersTimeout > limits.requestTimeout) {
    throw new ConfigError(
      `HTTP_HEADERS_TIMEOUT_MS (${limits.headersTimeout}) must not be longer than HTTP_REQUEST_TIMEOUT_MS (${limits.requestTimeout})`,
    );
  }
  return limits;
}

/**
 * How often node:http looks for requests past their header or request timeout: a tenth of the shorter
 * one, between 50 ms and 1 s (node's default, 30 s, let a 10 s timeout run to 40 s).
 */
export function connectionsCheckingInterval(limits: Pick<HttpLimits, 'headersTimeout' | 'requestTimeout'>): number {
  return Math.min(1000, Math.max(50, Math.floor(Math.min(limits.headersTimeout, limits.requestTimeout) / 10)));
}
