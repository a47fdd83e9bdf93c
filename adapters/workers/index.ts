/**
 * The Cloudflare Workers binding: a module Worker whose `fetch` builds the app once per isolate and takes
 * the client address from `CF-Connecting-IP`, which Cloudflare's edge always sets and overwrites.
 *
 * @example
 * ```ts
 * export default createWorker(async (env: Env) => createApp({ ... }));
 * ```
 * @module
 */
import type { App } from '../../core/app.ts';
import { internalError } from '../../core/errors.ts';
import { JSON_TYPE } from '../../core/http.ts';
import { createFetchHandler, type FetchHandler } from '../fetch/index.ts';

/** A module Worker: what `export default` hands to the Workers runtime. */
export interface WorkerModule<Env> {
  fetch(request: Request, env: Env): Promise<Response>;
}

/**
 * Creates a module Worker over an app.
 *
 * @param setup Builds the app from the Worker's bindings; called on the first request of an isolate, and
 *   again on the next request when it failed.
 * @param options.onSetupError Where a failed setup is reported (console.error by default).
 * @returns The object to `export default`.
 */
export function createWorker<Env>(
  setup: (env: Env) => Promise<App> | App,
  options: { onSetupError?: (error: unknown) => void } = {},
): WorkerModule<Env> {
  const report = options.onSetupError ?? ((error: unknown) => console.error('worker setup failed', error));
  let ready: Promise<FetchHandler> | null = null;
  return {
    async fetch(request, env) {
      ready ??= Promise.resolve(setup(env)).then((app) => createFetchHandler(app));
      let handle: FetchHandler;
      try {
        handle = await ready;
      } catch (error) {
        ready = null;
        report(error);
        return new Response(JSON.stringify(internalError().toBody()), { status: 500, headers: { 'content-type': JSON_TYPE } });
      }
      return handle(request, request.headers.get('cf-connecting-ip') ?? '');
    },
  };
}
