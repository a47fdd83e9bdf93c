/**
 * JSON-lines logging to stdout and stderr.
 *
 * @module
 */
import type { Logger } from '../core/ports.ts';

function line(level: string, message: string, fields?: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
}

export const consoleLogger: Logger = {
  info: (message, fields) => process.stdout.write(line('info', message, fields) + '\n'),
  warn: (message, fields) => process.stderr.write(line('warn', message, fields) + '\n'),
  error: (message, fields) => process.stderr.write(line('error', message, fields) + '\n'),
};
