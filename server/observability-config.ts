/**
 * The environment of logs, metrics and draining: LOG_LEVEL, LOG_REQUESTS, METRICS_PORT, METRICS_HOST and
 * DRAIN_SECONDS.
 *
 * @module
 */
import { ConfigError } from './config-error.ts';
import { LOG_LEVELS, type LogLevel } from './logger.ts';

export interface ObservabilitySettings {
  logLevel: LogLevel;
  /** Whether one access-log line is written per request. */
  logRequests: boolean;
  /** Where GET /metrics is served; null: no metrics. */
  metrics: { port: number; host: string } | null;
  /** How long a stop keeps serving with /readyz at 503 before it stops accepting, in ms; 0 by default. */
  drainMs: number;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${name}=${JSON.stringify(value)} is not one of ${allowed.join(', ')}`);
}

/**
 * Reads the settings.
 *
 * @param env The process environment.
 * @throws ConfigError naming the variable.
 */
export function observabilitySettings(env: Record<string, string | undefined>): ObservabilitySettings {
  const level = env['LOG_LEVEL']?.trim() || 'info';
  const requests = env['LOG_REQUESTS']?.trim() || 'false';
  const port = env['METRICS_PORT']?.trim() ?? '';
  if (port !== '' && (!/^\d+$/.test(port) || Number(port) > 65535)) {
    throw new ConfigError(`METRICS_PORT must be a port number from 0 to 65535, not ${JSON.stringify(port)}`);
  }
  const drain = env['DRAIN_SECONDS']?.trim() || '0';
  if (!/^\d+$/.test(drain) || Number(drain) > 300) {
    throw new ConfigError(`DRAIN_SECONDS must be whole seconds from 0 to 300, not ${JSON.stringify(drain)}`);
  }
  return {
    drainMs: Number(drain) * 1000,
    logLevel: oneOf('LOG_LEVEL', level.toLowerCase(), LOG_LEVELS),
    logRequests: oneOf('LOG_REQUESTS', requests.toLowerCase(), ['true', 'false']) === 'true',
    metrics: port === '' ? null : { port: Number(port), host: env['METRICS_HOST']?.trim() || '127.0.0.1' },
  };
}
