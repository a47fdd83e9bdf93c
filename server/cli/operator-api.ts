/**
 * What the operator commands (`release`, `roadmap`, `feedback`, `orders`, `webhooks`, `stats`, and `export`
 * of a held DATA_DIR) share: the operator API's address and token from the environment, the end of their
 * help, one call with the refusal printed as the API words it, and a plain table for people.
 *
 * @module
 */
import * as v from 'valibot';
import type { OperatorOperation, PathParams } from '../../core/operator/operation.ts';
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

/** One call of a declared operator operation, ready to send: its answer is typed by the operation's output schema. */
export interface PreparedCall<Output> {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path with its segments filled in and percent-encoded, and the query string. */
  readonly path: string;
  readonly body?: unknown;
  readonly output: v.GenericSchema<unknown, Output>;
}

/** A text field as a command line gives it: any string where the schema takes some strings (the API says which). */
type Typed<T> = T extends string ? string : T extends readonly (infer E)[] ? Typed<E>[] : T;

/** What a command gives an operation: its path segments, query values and body, typed by the operation. */
export interface CallInput<Path extends string, QueryIn, BodyIn> {
  readonly params?: Readonly<Record<PathParams<Path>, string>>;
  readonly query?: { readonly [K in keyof QueryIn]?: string | undefined };
  readonly body?: { [K in keyof BodyIn]: Typed<BodyIn[K]> };
}

/**
 * Prepares a call of a declared operation (core/operator/endpoints.ts): the CLI's typed client.
 *
 * @param operation The operation.
 * @param input Its path segments, query and body.
 */
export function prepare<Path extends string, Query, Body, Output, QueryIn, BodyIn>(
  operation: OperatorOperation<Path, Query, Body, Output, QueryIn, BodyIn>,
  input: CallInput<Path, QueryIn, BodyIn> = {},
): PreparedCall<Output> {
  const params: Readonly<Record<string, string>> = input.params ?? {};
  const path = operation.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams(Object.entries(input.query ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return {
    method: operation.method,
    path: query.size > 0 ? `${path}?${query}` : path,
    ...(input.body === undefined ? {} : { body: input.body }),
    output: operation.output,
  };
}

/** What failed to reach the operator API, in words: the cause of a fetch failure (ECONNREFUSED ...). */
function unreachable(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  return code || (cause instanceof Error ? cause.message : String(cause));
}

/** An answer of the operator API: the JSON text and its typed value, or what went wrong in words. */
export type OperatorAnswer<Output> = { ok: true; text: string; value: Output } | { ok: false; message: string };

/**
 * Sends one call to the operator API.
 *
 * @returns The answer's JSON text and its value (checked against the operation's output schema), or the
 *   API's refusal, or why it could not be reached, as lines for a person.
 */
export async function requestOperator<Output>(api: OperatorApi, call: PreparedCall<Output>): Promise<OperatorAnswer<Output>> {
  const withBody = call.body !== undefined;
  let response: Response;
  try {
    response = await fetch(api.url + call.path, {
      method: call.method,
      headers: { authorization: `Bearer ${api.token}`, ...(withBody ? { 'content-type': 'application/json' } : {}) },
      ...(withBody ? { body: JSON.stringify(call.body) } : {}),
    });
  } catch (error) {
    const message = `cannot reach the operator API at ${api.url} (${
      unreachable(error)
    })\nStart the server with OPERATOR_PORT set, or set OPERATOR_URL to its operator listener.`;
    return { ok: false, message };
  }
  const text = await response.text();
  const json = parsedJson(text);
  if (!response.ok) {
    const error = v.safeParse(ErrorBodySchema, json);
    if (!error.success) {
      return { ok: false, message: `the operator API answered ${response.status} without an error body; is OPERATOR_URL the operator listener?` };
    }
    return { ok: false, message: `${error.output.message} (${error.output.code}; ${response.status})\n${error.output.resolution}` };
  }
  const answer = v.safeParse(call.output, json);
  if (!answer.success) {
    const where = v.getDotPath(answer.issues[0]) ?? 'body';
    return {
      ok: false,
      message: `the operator API answered in a shape this command does not know (${where}: ${answer.issues[0].message}); is it the same version?`,
    };
  }
  return { ok: true, text, value: answer.output };
}

/**
 * Sends one call to the operator API of OPERATOR_URL with OPERATOR_TOKEN.
 *
 * @param command The command's name, for the message of a refusal.
 * @returns The answer, or the exit code after printing why there is none to stderr.
 */
export async function callOperator<Output>(
  command: string,
  call: PreparedCall<Output>,
  io: Io,
  env = process.env,
): Promise<{ text: string; value: Output } | { exit: number }> {
  const answer = await requestOperator(operatorApi(env), call);
  if (answer.ok) return answer;
  io.stderr(`converter-site-api ${command}: ${answer.message}\n`);
  return { exit: EXIT.failed };
}

const ErrorBodySchema = v.object({ code: v.string(), message: v.string(), resolution: v.string() });

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Rows as left-aligned columns two spaces apart; the first row is the header. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

/** An answer's JSON as it came, on lines of its own. */
const jsonLines = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);

/** Prints an answer: its JSON as it came with --json, else the table `render` makes of it. */
export function printAnswer<T>(answer: { text: string; value: T }, json: boolean, io: Io, render: (value: T) => string[][]): number {
  io.stdout(json ? jsonLines(answer.text) : table(render(answer.value)));
  return EXIT.ok;
}

/**
 * Sends one call and prints its answer: its JSON as it came with --json, else the text `render` makes of it.
 *
 * @param command The command's name, for the message of a refusal.
 * @returns The exit code: 0, or callOperator's when there is no answer.
 */
export async function printCall<Output>(
  command: string,
  call: PreparedCall<Output>,
  json: boolean,
  io: Io,
  render: (value: Output) => string,
): Promise<number> {
  const answer = await callOperator(command, call, io);
  if ('exit' in answer) return answer.exit;
  io.stdout(json ? jsonLines(answer.text) : render(answer.value));
  return EXIT.ok;
}
