/**
 * The Deno binding: a handler for `Deno.serve`, taking the client address from `info.remoteAddr`.
 *
 * @example
 * ```ts
 * Deno.serve({ port: 8080 }, createDenoHandler(app));
 * ```
 * @module
 */
import type { App } from '../../core/app.ts';
import { createFetchHandler, type FetchHandlerOptions } from '../fetch/index.ts';

/** The part of Deno's `ServeHandlerInfo` the binding reads (a Unix socket peer has no hostname). */
export interface DenoServeInfo {
  readonly remoteAddr: { readonly transport: string; readonly hostname?: string };
}

/** A `Deno.serve` handler. */
export type DenoHandler = (request: Request, info: DenoServeInfo) => Response | Promise<Response>;

/**
 * Creates the `Deno.serve` handler.
 *
 * @param app The core app.
 * @param options Trusted proxies.
 */
export function createDenoHandler(app: App, options: FetchHandlerOptions = {}): DenoHandler {
  const handle = createFetchHandler(app, options);
  return (request, info) => handle(request, info.remoteAddr.hostname ?? '');
}
