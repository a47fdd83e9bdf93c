/**
 * What the operator commands (`release`, `orders`) share: the operator API's address and token from the
 * environment, one call, and its refusal printed as the server worded it.
 *
 * @module
 */
import { ConfigError } from '../config-error.ts';
import type { Io } from './command.ts';

/** The operator API's address and token. */
export interface OperatorApi {
  url: string;
  token: string;
}

/**
 * OPERATOR_URL and OPERATOR_TOKEN.
 *
 * @throws ConfigError (exit 78) when either is missing.
 */
export function operatorApi(env: NodeJS.ProcessEnv): OperatorApi {
  const url = env['OPERATOR_URL']?.trim();
  const token = env['OPERATOR_TOKEN']?.trim();
  if (!url) throw new ConfigError('OPERATOR_URL is not set: the address of the operator listener, e.g. http://127.0.0.1:8081');
  if (!token) throw new ConfigError('OPERATOR_TOKEN is not set: the token the server was started with');
  return { url: url.replace(/\/+$/, ''), token };
}

/** One call of the operator API. */
export interface OperatorCall {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/**
 * Sends a call; a refusal is written to stderr as `<command>: <message> (<code>; <status>)` and its
 * resolution.
 *
 * @returns The answer's text, or null when it was refused.
 */
export async function callOperator(api: OperatorApi, call: OperatorCall, command: string, io: Io): Promise<string | null> {
  const response = await fetch(api.url + call.path, {
    method: call.method,
    headers: { authorization: `Bearer ${api.token}`, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
  });
  const text = await response.text();
  if (response.ok) return text;
  const error = JSON.parse(text) as { code: string; message: string; resolution: string };
  io.stderr(`converter-site-api ${command}: ${error.message} (${error.code}; ${response.status})\n${error.resolution}\n`);
  return null;
}

/** Rows as aligned columns, the first row the header. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}
