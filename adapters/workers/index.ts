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
import { clientKey } from '../../core/clients/client-ip.ts';
import { internalError } from '../../core/http/errors.ts';
import type { Clock, RateLimitStore } from '../../core/ports/ports.ts';
import { createRateLimiter, PUBLIC_API_POLICY, type RateLimiter } from '../../core/pipeline/rate-limit.ts';
import { requestIdFor } from '../../core/http/request-id.ts';
import { addSecurityHeaders } from '../../core/http/security-headers.ts';
import { createFetchHandler, type FetchHandler, toWebResponse } from '../fetch/index.ts';
import { createMemoryRateLimitStore } from '../memory/rate-limits.ts';

/** The part of the Workers runtime's `ctx` this project uses: work that may end after the answer. */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** A module Worker: what `export default` hands to the Workers runtime. */
export interface WorkerModule<Env> {
  fetch(request: Request, env: Env, ctx?: WorkerContext): Promise<Response>;
}

/** How a Worker reports and answers a failed setup. */
export interface WorkerOptions {
  /** Where a failed setup is reported (console.error by default). */
  onSetupError?: (error: unknown) => void;
  /** Where time comes from for the quota of failed-setup answers (tests inject one). */
  clock?: Clock;
  /** The counters of that quota; in the isolate's memory by default. */
  rateLimitStore?: RateLimitStore;
}

/**
 * The answer while the app cannot be built: 500 `internal_error` (429 past the quota), counted per client
 * and carrying the rate-limit headers, `Cache-Control: no-store`, the security headers and X-Request-Id,
 * like every answer of the app.
 */
async function setupFailure(limiter: RateLimiter, request: Request, clientIp: string): Promise<Response> {
  const decision = await limiter.check(clientKey(clientIp));
  const answer = decision.allowed ? internalError().toResponse() : limiter.refuse(decision);
  const requestId = requestIdFor({ 'x-request-id': request.headers.get('x-request-id') ?? undefined });
  Object.assign(answer.headers, decision.headers, { 'cache-control': 'no-store', 'x-request-id': requestId });
  addSecurityHeaders(answer.headers);
  return toWebResponse(answer);
}

/**
 * Creates a module Worker over an app.
 *
 * @param setup Builds the app from the Worker's bindings; called on the first request of an isolate, and
 *   again on the next request when it failed.
 * @param options Where a failed setup is reported, and the clock and counters of its answers.
 * @returns The object to `export default`.
 */
export function createWorker<Env>(setup: (env: Env) => Promise<App> | App, options: WorkerOptions = {}): WorkerModule<Env> {
  const report = options.onSetupError ?? ((error: unknown) => console.error('worker setup failed', error));
  const clock = options.clock ?? { now: () => Date.now() };
  let failures: RateLimiter | null = null;
  let ready: Promise<FetchHandler> | null = null;
  return {
    async fetch(request, env) {
      const clientIp = request.headers.get('cf-connecting-ip') ?? '';
      ready ??= (async () => createFetchHandler(await setup(env)))();
      let handle: FetchHandler;
      try {
        handle = await ready;
      } catch (error) {
        ready = null;
        report(error);
        failures ??= createRateLimiter(
          PUBLIC_API_POLICY,
          options.rateLimitStore ?? createMemoryRateLimitStore(clock),
          { info: () => undefined, warn: () => undefined, error: (message, fields) => console.error(message, fields) },
          () => clock.now(),
        );
        return setupFailure(failures, request, clientIp);
      }
      return handle(request, clientIp);
    },
  };
}
