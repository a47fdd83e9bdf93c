/**
 * How an operator operation is declared: like a public endpoint, one object holding its method and path,
 * the valibot schemas of its query, body and answer, its success status and the errors it answers with,
 * and the function that does it. The HTTP binding (http-binding.ts), the pages (adapters/operator-pages),
 * the CLI's typed client and the OpenAPI document are all read off this one declaration.
 *
 * @module
 */
import type * as v from 'valibot';
import type { Caller, OperatorContext } from './context.ts';
import type { OperatorErrorCode } from './errors.ts';

/** The names of a path's `:name` segments: `'/orders/:session/revoke'` gives `'session'`. */
export type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}` ? Name | PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}` ? Name
  : never;

export type { Caller } from './context.ts';

/** What an operation is given: the path's segments as sent (decoded), the parsed query and body. */
export interface OperatorInput<Path extends string, Query, Body> {
  readonly params: Readonly<Record<PathParams<Path>, string>>;
  readonly query: Query;
  readonly body: Body;
}

/** One operator operation, declared. */
export interface OperatorOperation<Path extends string = string, Query = unknown, Body = unknown, Output = unknown, QueryIn = unknown, BodyIn = unknown> {
  readonly operationId: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A path of the operator listener; `:name` segments are parameters. */
  readonly path: Path;
  readonly summary: string;
  /** The query parameters it takes (each given at most once), as an object of optional strings. */
  readonly query?: v.GenericSchema<QueryIn, Query>;
  /** The JSON body it takes, if any. */
  readonly body?: v.GenericSchema<BodyIn, Body>;
  /** Whether the body may be left out (it then reads as `{}`). */
  readonly bodyOptional?: boolean;
  /** The JSON of a successful answer. */
  readonly output: v.GenericSchema<unknown, Output>;
  readonly status: 200 | 201 | 202;
  /** The operator error codes it answers with, besides the ones every operator request may get. */
  readonly errors: readonly OperatorErrorCode[];
  /** Does it; throws an `AnsweringError` for a refusal. */
  run(context: OperatorContext, input: OperatorInput<Path, Query, Body>, caller: Caller): Promise<NoInfer<Output>>;
}

/** Any declared operation, for tables and bindings. */
// Method syntax above makes `run` bivariant, so every declared operation is one of these.
export type AnyOperatorOperation = OperatorOperation<string, unknown, unknown, unknown>;

/** The answer of an operation. */
export type OutputOf<Op> = Op extends OperatorOperation<string, unknown, unknown, infer Output> ? Output : never;

/**
 * Declares an operation, inferring its types from its path and schemas.
 *
 * @param operation The declaration.
 * @returns The same object, typed.
 */
export function defineOperation<Path extends string, Output, Query = undefined, Body = undefined, QueryIn = undefined, BodyIn = undefined>(
  operation: OperatorOperation<Path, Query, Body, Output, QueryIn, BodyIn>,
): OperatorOperation<Path, Query, Body, Output, QueryIn, BodyIn> {
  return operation;
}
