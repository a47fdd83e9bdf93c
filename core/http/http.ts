/**
 * The request-like input and response-like output of the core: plain objects, no runtime types.
 *
 * @module
 */

/** Header values as node:http gives them: lower-case names, a string or a list of strings. */
export type HeaderMap = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What an adapter hands to the core for one HTTP request. */
export interface CoreRequest {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The path without the query string, e.g. `/api/v1/pricing`. */
  readonly path: string;
  /** The raw query string without the leading `?` (empty or absent when there is none). */
  readonly query?: string | undefined;
  /** Request headers with lower-case names. */
  readonly headers: HeaderMap;
  /**
   * The raw body, read by the adapter up to `app.bodyLimit + 1` bytes, so that the core can tell an
   * over-limit body from one that is exactly at the limit. Absent for a request without a body.
   */
  readonly body?: Uint8Array | string | undefined;
  /** The client address as resolved by the adapter (see `resolveClientIp`). */
  readonly clientIp: string;
  /** Whether the request came over TLS to this process (the adapter knows; absent means no). */
  readonly tls?: boolean | undefined;
  /**
   * The request id, set by the app as it takes the request (see `requestIdFor`): adapters leave it
   * undefined. Log lines about the request carry it.
   */
  requestId?: string | undefined;
  /** The key the client is counted by (see `clientKey`), set by the app with the request id. */
  clientKey?: string | undefined;
}

/** What the core answers: the adapter writes it as is. */
export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  /** `null` for a response without a body (302, 204, HEAD), or one whose body is `stream`. */
  body: string | Uint8Array | null;
  /**
   * A body written as it is made, with `body` null (a long export): each chunk is sent when it is ready,
   * so the answer is never held whole in memory. A stream that throws ends the answer short: the client
   * sees an incomplete body, never a truncated file that looks whole.
   */
  stream?: AsyncIterable<string> | undefined;
}

/** The first value of a header, or undefined. */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : value?.[0];
}

export const JSON_TYPE = 'application/json';
export const TEXT_TYPE = 'text/plain; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

const encoder = new TextEncoder();

/** Serializes a JSON body once; the bytes can then be served to every request without work. */
export function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** A JSON response. */
export function json(status: number, value: unknown): CoreResponse {
  return { status, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(value) };
}
