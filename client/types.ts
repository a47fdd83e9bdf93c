/**
 * The client's types, derived from the endpoints (core/endpoints.ts, typed by core/endpoint.ts) and the schemas the server validates
 * with: a method's argument is its JSON body or its query parameters, its result the success schema's output.
 *
 * @module
 */
import type * as v from 'valibot';
import type { Endpoint, QueryParameter } from '../core/endpoint.ts';

/** The rate-limit state of an answer, from its RateLimit-* headers (draft-ietf-httpapi-ratelimit-headers). */
export interface RateLimitState {
  /** Requests allowed per window (RateLimit-Limit). */
  limit: number;
  /** Requests left in the current window (RateLimit-Remaining). */
  remaining: number;
  /** Seconds until the window resets (RateLimit-Reset). */
  reset: number;
  /** Seconds to wait before retrying (Retry-After); only on 429. */
  retryAfter?: number;
}

/** A parsed answer with what its headers said. */
export interface WithMeta<T> {
  /** The parsed body: what the plain method resolves to. */
  data: T;
  /** The HTTP status. */
  status: number;
  /** The response headers. */
  headers: Headers;
  /** The rate-limit state; undefined when the answer had no RateLimit headers (e.g. not exposed by CORS). */
  rateLimit: RateLimitState | undefined;
}

/** When and how often to retry an answer of 429 rate_limited. */
export interface RetryOptions {
  /** How many times a 429 is retried (after its Retry-After) before the call rejects. */
  retries: number;
  /** A 429 whose Retry-After is longer than this many seconds is not waited for; 60 by default. */
  maxWaitSeconds?: number;
  /** Waits this many milliseconds; a timer by default. Tests pass one that moves their clock. */
  sleep?: (ms: number) => Promise<void>;
}

/** The fetch the client calls: the global one by default. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/** How to reach the API. */
export interface ClientOptions {
  /** The server's address, e.g. "https://www.example.com" (a path prefix is kept). */
  baseUrl: string | URL;
  /** A fetch to use instead of the global one (to add headers, a proxy, a test double). */
  fetch?: FetchFunction;
  /** Checks each successful JSON body against the endpoint's schema; off by default. */
  validate?: boolean;
  /** Retries a 429 after its Retry-After; off by default. */
  retry?: RetryOptions;
}

/** The OpenAPI document, as JSON. */
export type OpenApiDocument =
  & { openapi: string; info: { title: string; version: string }; paths: Record<string, unknown> }
  & Record<
    string,
    unknown
  >;

/** Query parameters by name: required ones required, the others optional. */
type QueryArgs<Q extends readonly QueryParameter[]> =
  & {
    [P in Q[number] as P['required'] extends true ? P['name'] : never]: v.InferInput<P['schema']>;
  }
  & {
    [P in Q[number] as P['required'] extends true ? never : P['name']]?: v.InferInput<P['schema']> | undefined;
  };

/** Flattens an intersection so editors show one object. */
type Flat<T> = { [K in keyof T]: T[K] };

/** The argument of an endpoint's method: the JSON body's fields, the query parameters, or nothing. */
export type ArgsOf<E extends Endpoint> = E extends { body: { schema: infer S extends v.GenericSchema } } ? v.InferInput<S>
  : E extends { query: infer Q extends readonly QueryParameter[] } ? Flat<QueryArgs<Q>>
  : undefined;

/** What an endpoint's method resolves to: the parsed JSON body, the text, the redirect target, or nothing (a 204). */
export type ResultOf<E extends Endpoint> = E['success'] extends { schema: infer S extends v.GenericSchema } ? v.InferOutput<S>
  : E['success'] extends { status: 204 } ? undefined
  : E['success'] extends { mediaType: 'text/plain' } ? string
  : E['success'] extends { mediaType: 'application/json' } ? OpenApiDocument
  : string;

/**
 * The empty object type, for the test "every field of A is optional" (`Empty extends A`); deno lint's
 * ban-types reads `{}` as "any non-null value", which is what makes the test work.
 */
// deno-lint-ignore ban-types
type Empty = {};

/** A method: no argument, an optional one (every field optional) or a required one. */
export type Method<A, R> = [A] extends [undefined] ? () => Promise<R> : Empty extends A ? (args?: A) => Promise<R> : (args: A) => Promise<R>;

/** The operationId of a redirect endpoint, for its link builder. */
type RedirectId<E extends Endpoint> = E['success'] extends { status: 302 } ? E['operationId'] : never;

/** One method per endpoint, named by its operationId. */
export type Methods<E extends Endpoint, Wrap extends 'data' | 'meta'> = {
  [X in E as X['operationId']]: Method<ArgsOf<X>, Wrap extends 'data' ? ResultOf<X> : WithMeta<ResultOf<X>>>;
};

/** The link builders: `<operationId>Link(args)` gives the address of a redirect endpoint, with no request. */
export type Links<E extends Endpoint> = {
  [X in E as `${RedirectId<X>}Link`]: Empty extends ArgsOf<X> ? (args?: ArgsOf<X>) => string : (args: ArgsOf<X>) => string;
};

/**
 * A client of the given endpoints: each method resolves to the parsed body, `withMeta.<method>` to the body
 * with the status, headers and rate-limit state, and a redirect endpoint also has a `<operationId>Link`.
 */
export type Client<E extends Endpoint> = Methods<E, 'data'> & Links<E> & { readonly withMeta: Methods<E, 'meta'> };
