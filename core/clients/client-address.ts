/**
 * A request that comes with no client address (`clientIp` ''): the host gave the app none, as a Next.js
 * route handler does without a proxy it trusts. Such requests would all be one client (one rate-limit
 * quota, one roadmap voter), so the app never serves them silently: it warns once, counts each one, and
 * with `clientAddress: 'required'` answers 500 client_address_missing instead (docs/embedding.md).
 *
 * @module
 */
import { errorResponse } from '../http/errors.ts';
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import type { AppEvent, Logger } from '../ports/ports.ts';

/**
 * What the app does with a metered request that has no client address: `shared` serves it as one client
 * shared by every such request (the default); `required` answers 500 client_address_missing.
 */
export type ClientAddressPolicy = 'shared' | 'required';

/** The runtimes whose fix for a missing address differs. */
export type Runtime = 'workers' | 'deno' | 'bun' | 'node';

/** The runtime the app runs on, from web-standard globals (`navigator.userAgent`) and the runtime's own. */
export function runtimeOf(scope: object = globalThis): Runtime {
  if ((scope as { navigator?: { userAgent?: unknown } }).navigator?.userAgent === 'Cloudflare-Workers') return 'workers';
  if ('Deno' in scope) return 'deno';
  if ('Bun' in scope) return 'bun';
  return 'node';
}

const SEE = ' See docs/embedding.md, "The client address".';

/** The fix for a missing address, by runtime: what the host must pass as `clientIp`. */
export const MISSING_ADDRESS_FIX: Readonly<Record<Runtime, string>> = {
  workers: "Cloudflare's edge sets CF-Connecting-IP on every request it passes, and createWorker reads it: this request " +
    'reached the Worker another way (workerd run locally, a service binding). Send the traffic through Cloudflare.' + SEE,
  deno: 'Pass the peer address to the fetch handler: createDenoHandler reads info.remoteAddr; Hono on Deno, getConnInfo of hono/deno.' + SEE,
  bun: 'Pass the peer address to the fetch handler: createBunHandler reads server.requestIP(request); Hono on Bun, getConnInfo of hono/bun.' + SEE,
  node: 'A fetch handler was called without an address. A Next.js route handler has none: behind your own proxy ' +
    'that sets X-Real-IP, pass that header (TRUST_X_REAL_IP=1 in the Next.js recipe); on Vercel, pass the ' +
    'X-Real-IP its edge sets (VERCEL=1). Hono on Node: getConnInfo(c).remote.address. createNodeListener reads the socket itself.' + SEE,
};

/**
 * The check of every metered request: null when it may go on, else its 500 answer. The first request
 * without an address is logged at `warn` with the fix for this runtime (once per app: one per process in
 * every recipe); each one is counted as `client_address_missing`.
 */
export function createAddressCheck(
  policy: ClientAddressPolicy,
  logger: Logger,
  count: (event: AppEvent) => void,
  fix: string = MISSING_ADDRESS_FIX[runtimeOf()],
): (request: CoreRequest) => CoreResponse | null {
  let warned = false;
  return (request) => {
    if (request.clientIp !== '') return null;
    count('client_address_missing');
    if (!warned) {
      warned = true;
      const outcome = policy === 'required'
        ? "each is answered 500 client_address_missing (clientAddress: 'required')"
        : "every such request is served as one client: one rate-limit quota, one roadmap voter (clientAddress: 'required' answers 500 instead)";
      logger.warn(`a request came with no client address: ${outcome}. Said once; each one is counted (client_address_missing)`, {
        requestId: request.requestId,
        path: request.path,
        fix,
      });
    }
    if (policy === 'shared') return null;
    return errorResponse(
      'client_address_missing',
      'The server was given no client address for this request, so it cannot tell this client from any other; it is set to refuse such requests.',
    );
  };
}
