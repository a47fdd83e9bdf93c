/**
 * The request of one call: the endpoint's address with its query, and its JSON body.
 *
 * @module
 */
import { type Endpoint, V1_PREFIX } from '../core/endpoint.ts';

/** The arguments of a call as the runtime sees them. */
export type CallArgs = Record<string, unknown> | undefined;

/**
 * The absolute address of an endpoint: the base URL (its path kept), /api/v1 for a versioned endpoint, the
 * path, and the query parameters the endpoint documents that have a value.
 *
 * @param baseUrl The server's address.
 * @param endpoint The endpoint.
 * @param args The call's arguments.
 */
export function endpointUrl(baseUrl: string | URL, endpoint: Endpoint, args: CallArgs): string {
  const base = String(baseUrl).replace(/\/+$/, '');
  const url = new URL(`${base}${endpoint.versioned ? V1_PREFIX : ''}${endpoint.path}`);
  for (const { name } of endpoint.query ?? []) {
    const value = args?.[name];
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url.href;
}

/**
 * The fetch options of a call: a JSON body for a POST (none when the body is optional and no argument was
 * given); a redirect endpoint's redirect is not followed, so that its Location can be read.
 *
 * @param endpoint The endpoint.
 * @param args The call's arguments.
 */
export function requestInit(endpoint: Endpoint, args: CallArgs): RequestInit {
  const init: RequestInit = { method: endpoint.method };
  if (endpoint.success.status === 302) init.redirect = 'manual';
  if (endpoint.body && (args !== undefined || endpoint.body.required)) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(args ?? {});
  }
  return init;
}
