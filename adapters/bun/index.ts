/**
 * The Bun binding: a `fetch` for `Bun.serve`, taking the client address from `server.requestIP`.
 *
 * @example
 * ```ts
 * Bun.serve({ port: 8080, fetch: createBunHandler(app) });
 * ```
 * @module
 */
import type { App } from '../../core/app.ts';
import { createFetchHandler, type FetchHandlerOptions } from '../fetch/index.ts';

/** The part of Bun's `Server` the binding uses. */
export interface BunServerLike {
  requestIP(request: Request): { readonly address: string } | null;
}

/** A `Bun.serve` fetch function. */
export type BunHandler = (request: Request, server: BunServerLike) => Response | Promise<Response>;

/**
 * Creates the `Bun.serve` fetch function.
 *
 * @param app The core app.
 * @param options Trusted proxies.
 */
export function createBunHandler(app: App, options: FetchHandlerOptions = {}): BunHandler {
  const handle = createFetchHandler(app, options);
  return (request, server) => handle(request, server.requestIP(request)?.address ?? '');
}
