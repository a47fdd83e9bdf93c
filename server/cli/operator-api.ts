/**
 * What the operator commands (`release`, `roadmap`, `feedback`, `orders`, `webhooks`, `stats`, and `export`
 * of a held DATA_DIR) share: the operator API's address and token from the environment, the end of their
 * help, one call with the refusal printed as the API words it, and a plain table for people.
 *
 * @module
 */
import { ConfigError } from '../config-error.ts';
import { EXIT, type Io } from './command.ts';

/** How every operator command's help ends: its exit codes. */
export const OPERATOR_EXIT_CODES = `exit codes: 0 done, 1 the operator API refused or did not answer, 64 usage error, 78 OPERATOR_URL or
            OPERATOR_TOKEN missing
`;

/** The `--json` option and the exit codes, which end the help of each command that prints a table. */
export const OPERATOR_HELP_FOOTER = `options:
  --json    print the operator API's JSON answer instead of a table

${OPERATOR_EXIT_CODES}`;

export interface OperatorApi {
  url: string;
  token: string;
}

/** OPERATOR_URL and OPERATOR_TOKEN, or null when either is unset. */
export function findOperatorApi(env: NodeJS.ProcessEnv): OperatorApi | null {
  const url = env['OPERATOR_URL']?.trim();
  const token = env['OPERATOR_TOKEN']?.trim();
  return url && token ? { url: url.replace(/\/+$/, ''), token } : null;
}

/** OPERATOR_URL and OPERATOR_TOKEN; a configuration error (exit 78) naming the one that is missing. */
export function operatorApi(env: NodeJS.ProcessEnv): OperatorApi {
  if (!env['OPERATOR_URL']?.trim()) throw new ConfigError('OPERATOR_URL is not set: the address of the operator listener, e.g. http://127.0.0.1:8081');
  if (!env['OPERATOR_TOKEN']?.trim()) throw new ConfigError('OPERATOR_TOKEN is not set: the token the server was started with');
  return findOperatorApi(env)!;
}

export interface OperatorCall {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: unknown;
}

/**
 * Sends one request to the operator API.
 *
 * @param command The command's name, for the message of a refusal.
 * @returns The answer's JSON text, or the exit code after printing the API's refusal to stderr.
 */
export async function callOperator(command: string, call: OperatorCall, io: Io, env = process.env): Promise<{ text: string } | { exit: number }> {
  const api = operatorApi(env);
  const withBody = call.body !== undefined;
  const response = await fetch(api.url + call.path, {
    method: call.method,
    headers: { authorization: `Bearer ${api.token}`, ...(withBody ? { 'content-type': 'application/json' } : {}) },
    ...(withBody ? { body: JSON.stringify(call.body) } : {}),
  });
  const text = await response.text();
  if (response.ok) return { text };
  const error = JSON.parse(text) as { code: string; message: string; resolution: string };
  io.stderr(`converter-site-api ${command}: ${error.message} (${error.code}; ${response.status})\n${error.resolution}\n`);
  return { exit: EXIT.failed };
}

/** Rows as left-aligned columns two spaces apart; the first row is the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

/** Prints an answer: its JSON as it came with --json, else the table `render` makes of it. */
export function printAnswer<T>(text: string, json: boolean, io: Io, render: (answer: T) => string[][]): number {
  io.stdout(json ? (text.endsWith('\n') ? text : `${text}\n`) : table(render(JSON.parse(text) as T)));
  return EXIT.ok;
}
