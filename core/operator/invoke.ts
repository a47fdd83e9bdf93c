/**
 * Calling a declared operator operation: its query and body checked against its schemas, then run. The
 * HTTP binding and the pages both come through here, so an operation has one set of checks, one set of
 * errors and one audit entry however it is called.
 *
 * @module
 */
import type * as v from 'valibot';
import { AnsweringError, ApiError, type ErrorBody } from '../http/errors.ts';
import { parseOrThrow } from '../http/validate.ts';
import type { OperatorContext } from './context.ts';
import { pathParam } from './path-param.ts';
import { OperatorError } from './errors.ts';
import type { Caller, OperatorOperation, PathParams } from './operation.ts';

/** What a caller hands an operation before any check: path segments, query values, the body's JSON value. */
export interface RawInput {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** The JSON value of the body; undefined when there was none. */
  readonly body?: unknown;
}

/** An operation's answer: its typed value, or the error's status and body. */
export type Outcome<Output> = { ok: true; status: number; value: Output } | ({ ok: false; status: number } & ErrorBody);

/** The dotted name of the first string in a JSON value that holds a NUL, or null: none does. */
function nulField(value: unknown, name: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? name : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const found = nulField(inner, name === '' ? key : `${name}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

/** The body as given; a NUL in any of its texts is refused: no field holds one, and PostgreSQL cannot store it. */
function noNulInBody(body: unknown): unknown {
  const field = nulField(body, '');
  if (field !== null) throw new ApiError('invalid_request', `Field "${field.slice(0, 64)}" has a NUL character.`);
  return body;
}

/** The query values as given; a NUL in one (a page's filter, decoded already) is refused: no search holds one. */
function noNul(query: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const bad = Object.entries(query).find(([name, value]) => name.includes('\u0000') || value.includes('\u0000'));
  if (bad) throw new OperatorError('invalid_query', `Query parameter ${JSON.stringify(bad[0].slice(0, 64))} has a NUL character.`);
  return query;
}

/**
 * Checks the input against the operation's schemas and runs it.
 *
 * @throws AnsweringError invalid_request (the message names the field; a NUL in any text of the body),
 *   invalid_path or invalid_query (a malformed escape or a NUL), or the operation's own refusal.
 */
export async function invoke<Path extends string, Query, Body, Output>(
  operation: OperatorOperation<Path, Query, Body, Output>,
  context: OperatorContext,
  input: RawInput,
  caller: Caller,
): Promise<Output> {
  const params = Object.fromEntries(Object.entries(input.params ?? {}).map(([name, value]) => [name, pathParam(name, value)]));
  const query = operation.query ? parseOrThrow(operation.query as v.GenericSchema, noNul(input.query ?? {})) : undefined;
  const body = operation.body ? parseOrThrow(operation.body as v.GenericSchema, noNulInBody(input.body ?? {})) : undefined;
  return operation.run(context, { params: params as Record<PathParams<Path>, string>, query: query as Query, body: body as Body }, caller);
}

/**
 * Runs an operation and answers with an outcome instead of throwing a refusal (for the pages).
 *
 * @throws What the operation throws that is not an answer (a storage fault): the pipeline answers 500.
 */
export async function attempt<Path extends string, Query, Body, Output>(
  operation: OperatorOperation<Path, Query, Body, Output>,
  context: OperatorContext,
  input: RawInput,
  caller: Caller,
): Promise<Outcome<Output>> {
  try {
    return { ok: true, status: operation.status, value: await invoke(operation, context, input, caller) };
  } catch (error) {
    if (!(error instanceof AnsweringError)) throw error;
    return { ok: false, status: error.status, ...error.toBody() };
  }
}
