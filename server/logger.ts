/**
 * JSON-lines logging: one object per line with `time` (ISO 8601), `level` and `message`, then the
 * fields; debug and info to stdout, warn and error to stderr. Lines below the level are dropped.
 *
 * @module
 */
import type { Logger } from '../core/ports/ports.ts';

/** The levels, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A logger whose level can be set once the configuration is read. */
export interface ServerLogger extends Required<Logger> {
  level: LogLevel;
}

function line(level: LogLevel, message: string, fields?: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), level, message, ...fields }) + '\n';
}

/**
 * Creates a logger.
 *
 * @param level The least severe level written; info by default.
 * @param out Where debug and info lines go; stdout by default.
 * @param err Where warn and error lines go; stderr by default.
 */
export function createLogger(
  level: LogLevel = 'info',
  out: (text: string) => void = (text) => void process.stdout.write(text),
  err: (text: string) => void = (text) => void process.stderr.write(text),
): ServerLogger {
  const rank = (l: LogLevel) => LOG_LEVELS.indexOf(l);
  const logger: ServerLogger = {
    level,
    debug: (message, fields) => void (rank(logger.level) <= 0 && out(line('debug', message, fields))),
    info: (message, fields) => void (rank(logger.level) <= 1 && out(line('info', message, fields))),
    warn: (message, fields) => void (rank(logger.level) <= 2 && err(line('warn', message, fields))),
    error: (message, fields) => err(line('error', message, fields)),
  };
  return logger;
}

/** The operator commands' logger: info and above, as before any configuration is read. */
export const consoleLogger: Logger = createLogger();
