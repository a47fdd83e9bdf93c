/**
 * Broken reference apps (web-platform-tests' fixtures that must fail): each wraps the reference app's
 * fetch and breaks one clause of the spec, so that the kit shows it can fail.
 */
import type { FetchLike } from '../../client/conformance/index.ts';
import type { TestAppOptions } from '../_setup.ts';

/** One broken app. */
export interface Mutant {
  name: string;
  /** The clause it breaks. */
  clause: string;
  /** Options of the reference app under it (e.g. deprecated aliases). */
  appOptions?: TestAppOptions;
  /**
   * Set when the spec does not state the rule it breaks (the mutant is a legal implementation): only the
   * kit's strict checks catch it, and the default kit passes it (mutants.test.ts checks both).
   */
  strict?: true;
  wrap(next: FetchLike): FetchLike;
}

/** The path of a request, without the query. */
export const pathOf = (request: Request) => new URL(request.url).pathname;

/** Whether the request is `method` on /api/v1`path` or /api`path`. */
export function isOperation(request: Request, method: string, path: string, prefixes = ['/api/v1', '/api']): boolean {
  return request.method === method && prefixes.some((prefix) => pathOf(request) === prefix + path);
}

/** A copy of a response with other headers, status or body (its length header dropped). */
export function reanswer(response: Response, change: { status?: number; body?: string | null; headers?: (headers: Headers) => void }, text = ''): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  change.headers?.(headers);
  const status = change.status ?? response.status;
  const body = change.body === undefined ? text : change.body;
  return new Response(status === 204 || status === 304 ? null : body, { status, headers });
}

/** A response with its JSON body rewritten. */
export async function rewriteJson(response: Response, rewrite: (body: Record<string, unknown>) => unknown): Promise<Response> {
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return reanswer(response, {}, text);
  }
  return reanswer(response, { body: JSON.stringify(rewrite(body)) });
}

/** A response with headers changed, body kept. */
export async function rewriteHeaders(response: Response, change: (headers: Headers) => void): Promise<Response> {
  return reanswer(response, { headers: change }, await response.text());
}

/** A response with another status, body kept. */
export async function restatus(response: Response, status: number): Promise<Response> {
  return reanswer(response, { status }, await response.text());
}

/** A request with its JSON body rewritten (a body that is not JSON is kept). */
export async function rewriteRequest(request: Request, rewrite: (body: Record<string, unknown> | null) => unknown): Promise<Request> {
  const text = request.body === null ? '' : await request.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = text === '' ? null : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    return new Request(request.url, { method: request.method, headers: request.headers, body: text });
  }
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  return new Request(request.url, { method: request.method, headers, body: JSON.stringify(rewrite(body)) });
}

/** A request to another URL (path and query), same method, headers and body. */
export async function readdress(request: Request, rewrite: (url: URL) => void): Promise<Request> {
  const url = new URL(request.url);
  rewrite(url);
  const body = request.body === null ? null : await request.text();
  return new Request(url, { method: request.method, headers: request.headers, body });
}

/** An error answer of the given status and code, with the response's headers. */
export function errorAnswer(response: Response, status: number, code: string): Response {
  return reanswer(response, {
    status,
    body: JSON.stringify({ code, message: `${code}.`, resolution: 'Try again.' }),
    headers: (h) => h.set('content-type', 'application/json'),
  });
}

/** Answers requests that match with `answer`, the rest through the app. */
export function when(match: (request: Request) => boolean, answer: (request: Request, next: FetchLike) => Promise<Response>): (next: FetchLike) => FetchLike {
  return (next) => (request) => (match(request) ? answer(request, next) : next(request));
}

/** Rewrites every answer. */
export function everyAnswer(rewrite: (response: Response, request: Request) => Promise<Response>): (next: FetchLike) => FetchLike {
  return (next) => async (request) => rewrite(await next(request), request);
}
