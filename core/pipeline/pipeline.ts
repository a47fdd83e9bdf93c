/**
 * The request pipeline: every request takes the same steps, top to bottom.
 *
 *   identify  request id, client key
 *   route     the router's match (probes are routes that are not metered)
 *   admit     a metered request without a client address first (core/clients/client-address.ts), then
 *             the gate's decision: the client's rate limit (the operator listener: its token)
 *   operate   the operation, or the 404/405/OPTIONS answer, or the gate's refusal (429, 401...)
 *   decorate  rate-limit, CORS, cache and security headers
 *   observe   the observer hears of the answer
 *
 * The sync/async rule (docs/architecture.md): an answer is synchronous when nothing waits for it (static
 * content, 404/405/429 with counters in memory); anything that touches storage is a plain promise. Only
 * this file looks for a promise, at two points: the decision of `admit` and the answer of `operate`.
 *
 * @module
 */
import { clientKey } from '../clients/client-ip.ts';
import type { Cors } from '../http/cors.ts';
import { AnsweringError, type ApiError, encodeError, errorAnswer, errorResponse, internalError } from '../http/errors.ts';
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import type { AppEvent, Logger, MaybePromise, Observer } from '../ports/ports.ts';
import type { Answer } from '../http/maybe.ts';
import type { RateLimitDecision, RateLimiter } from './rate-limit.ts';
import { createRecentCache } from '../clients/recent-cache.ts';
import { requestIdFor } from '../http/request-id.ts';
import { type Match, type Router, trimSlashes } from '../http/router.ts';
import { addSecurityHeaders } from '../http/security-headers.ts';

/** A gate's decision on one request: admitted or not, and the headers its answer carries. */
export interface GateDecision {
  readonly allowed: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Who may go on: the public rate limit (`rateLimitGate`), or the operator listener's token check
 * (core/operator). A refused request is answered by `refuse`, with the decision's headers.
 */
export interface Gate<D extends GateDecision = GateDecision> {
  check(request: CoreRequest): MaybePromise<D>;
  refuse(decision: D, request: CoreRequest): CoreResponse;
}

/** The public gate: the client's rate-limit decision, and the 429 of a client over its quota. */
export function rateLimitGate(limiter: RateLimiter, count: (event: AppEvent) => void): Gate<RateLimitDecision> {
  return {
    check: (request) => limiter.check(request.clientKey!),
    refuse(decision) {
      count('rate_limited');
      return limiter.refuse(decision);
    },
  };
}

/** What the pipeline is built from (see createApp for the wiring). */
export interface PipelineParts {
  router: Router;
  gate: Gate<GateDecision>;
  cors: Cors;
  /** Deprecation headers by alias path; empty when the aliases are not deprecated. */
  aliasNotices: ReadonlyMap<string, Readonly<Record<string, string>>>;
  logger: Logger;
  count: (event: AppEvent) => void;
  answered: Observer['answered'];
  /** A metered request's check for a client address: null to go on, else its answer. None: no check. */
  checkAddress?: (request: CoreRequest) => CoreResponse | null;
}

/** Answers one request; synchronously when nothing had to wait. Never throws, never rejects. */
export type Handle = (request: CoreRequest) => Answer;

export interface Pipeline {
  handle: Handle;
  /** Answers a request the adapter could not parse: counted and decorated like any other. */
  reject(clientIp: string, error: ApiError): Promise<CoreResponse>;
}

/** Unknown paths whose 404 body is kept, in each of the cache's two generations. */
const NOT_FOUND_CACHE_SIZE = 1024;

/** The longest path a 404 message quotes; a longer one is cut and ends with "…". */
const NOT_FOUND_PATH_LIMIT = 200;

/** The path as a 404 message quotes it: at most NOT_FOUND_PATH_LIMIT characters, never half a surrogate pair. */
function quotedPath(path: string): string {
  if (path.length <= NOT_FOUND_PATH_LIMIT) return path;
  const cut = path.slice(0, NOT_FOUND_PATH_LIMIT);
  const last = cut.charCodeAt(cut.length - 1);
  return `${last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut}…`;
}

const ignore = (): void => {};

/** The decision of a request refused before the gate: no rate-limit headers, but CORS, so a page can read why. */
const NOT_ADMITTED: GateDecision = Object.freeze({ allowed: false, headers: Object.freeze({}) });

/** Builds the pipeline. */
export function createPipeline(parts: PipelineParts): Pipeline {
  const { router, gate, cors, aliasNotices, logger, count, answered, checkAddress } = parts;
  const notFound = createRecentCache<string, Uint8Array>(NOT_FOUND_CACHE_SIZE);

  /** identify: the request id (the caller's when safe) and the key the client is counted by. */
  const identify = (request: CoreRequest): void => {
    request.requestId = requestIdFor(request.headers);
    request.clientKey = clientKey(request.clientIp);
  };

  /**
   * A fault of an operation: an ApiError is its own answer; anything else is logged with the request id and
   * counted as `unhandled` (h3's word), never shown. Nothing here tells a bug from a storage call that
   * threw, so neither is called a storage fault: `storage_error` counts only the faults caught where a
   * storage call is known (the rate-limit counters, a download's record, the readiness ping).
   */
  const fault = (request: CoreRequest, error: unknown): CoreResponse => {
    if (error instanceof AnsweringError) return error.toResponse();
    count('unhandled');
    logger.error('unhandled error', {
      requestId: request.requestId,
      method: request.method,
      path: request.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return internalError().toResponse();
  };

  /** operate: the route's handler, or the answer of a request that has none. */
  const operate = (request: CoreRequest, match: Match): Answer => {
    if (match.kind === 'handler') {
      try {
        return match.handler(request, match.params);
      } catch (error) {
        return fault(request, error);
      }
    }
    if (match.kind === 'not_found') {
      // A client repeating an unknown path costs a lookup (the 404 speed row); distinct paths cost an insert.
      const quoted = quotedPath(request.path);
      return errorAnswer(
        'not_found',
        notFound.get(quoted) ?? notFound.set(quoted, encodeError('not_found', `No API endpoint exists at ${JSON.stringify(quoted)}.`)),
      );
    }
    if (request.method === 'OPTIONS' && match.metered) return cors.options(request, match.allow);
    const message = `${request.method} is not allowed on ${request.path}; use ${match.allow}.`;
    return errorResponse('method_not_allowed', message, undefined, { allow: match.allow });
  };

  /**
   * decorate: the headers every answer carries; an unmetered one gets no rate-limit or CORS headers. A file
   * answer (`file`: the update files' 200, 304 and 302, which any cache hands to everyone) carries nothing
   * of the request either: no X-Request-Id (the caller may choose it), and its own Cache-Control.
   */
  const decorate = (request: CoreRequest, response: CoreResponse, decision: GateDecision | null, file = false): CoreResponse => {
    const { headers } = response;
    if (decision) Object.assign(headers, decision.headers);
    if (!file) headers['x-request-id'] = request.requestId!;
    // Every answer holds per-client state (rate limit) or a live state (probes): no shared cache may keep it.
    // The exceptions are a cacheable endpoint's 200 and 304 (the changelog: endpoint.ts `cacheable`) and a
    // file answer, each with the Cache-Control its operation set.
    if (!file && response.status !== 200 && response.status !== 304) headers['cache-control'] = 'no-store';
    else headers['cache-control'] ??= 'no-store';
    addSecurityHeaders(headers);
    if (decision) {
      cors.decorate(request, response);
      const notice = aliasNotices.size > 0 ? aliasNotices.get(trimSlashes(request.path)) : undefined;
      if (notice) Object.assign(headers, notice);
    }
    if (request.method === 'HEAD') {
      response.body = null;
      response.stream = undefined;
    }
    return response;
  };

  /** operate then decorate, waiting only when the operation's answer is a promise. */
  const answer = (request: CoreRequest, match: Match, decision: GateDecision | null, started?: Answer) => {
    const result = started ?? operate(request, match);
    if (!(result instanceof Promise)) return decorate(request, result, decision);
    return result.then(
      (response) => decorate(request, response, decision),
      (error: unknown) => decorate(request, fault(request, error), decision),
    );
  };

  /** After admit: the gate's refusal (429, 401...), or the answer. */
  const decided = (request: CoreRequest, match: Match, decision: GateDecision, started?: Answer) => {
    if (decision.allowed) return answer(request, match, decision, started);
    return decorate(request, gate.refuse(decision, request), decision);
  };

  /**
   * admit: the gate's decision. When it comes later (counters in a database), a read-only operation
   * starts at once beside it, and its answer is dropped if the client is refused.
   */
  const admit = (request: CoreRequest, match: Match): Answer => {
    const refused = checkAddress?.(request) ?? null;
    if (refused !== null) return decorate(request, refused, NOT_ADMITTED);
    const decision = gate.check(request);
    if (!(decision instanceof Promise)) return decided(request, match, decision);
    let started: Answer | undefined;
    if (match.kind === 'handler' && match.readsOnly) {
      started = operate(request, match);
      // A refused request's failed read is nobody's concern.
      if (started instanceof Promise) started.catch(ignore);
    }
    return decision.then((d) => decided(request, match, d, started)).catch((error: unknown) => outside(request, error));
  };

  /**
   * A route whose errors alone are metered (the update files): its answer first; a 2xx or 3xx goes out as
   * it is, with nothing per client; an error is counted like every error, and refused when over the quota.
   */
  const meteredIfError = (request: CoreRequest, match: Match): Answer => {
    const settle = (response: CoreResponse): Answer => {
      if (response.status < 400) return decorate(request, response, null, true);
      const refused = checkAddress?.(request) ?? null;
      if (refused !== null) return decorate(request, refused, NOT_ADMITTED);
      const decision = gate.check(request);
      if (!(decision instanceof Promise)) return metered(decision);
      return decision.then(metered).catch((error: unknown) => outside(request, error));
      function metered(d: GateDecision): CoreResponse {
        return d.allowed ? decorate(request, response, d) : decorate(request, gate.refuse(d, request), d);
      }
    };
    const operated = operate(request, match);
    if (!(operated instanceof Promise)) return settle(operated);
    return operated.then(settle, (error: unknown) => settle(fault(request, error)));
  };

  /** A fault outside every operation (a bug in a step): a bare 500 with the request id. */
  const outside = (request: CoreRequest, error: unknown): CoreResponse => {
    count('unhandled');
    logger.error('request failed outside an operation', { requestId: request.requestId, error: String(error) });
    const response = internalError().toResponse();
    response.headers['x-request-id'] = request.requestId!;
    return response;
  };

  /** observe: the observer hears of every final answer, with its route template and duration. */
  const observe = (request: CoreRequest, result: Answer, template: string | null, startedAt: number) => {
    const report = (response: CoreResponse): CoreResponse => {
      answered!(request, response, template, (performance.now() - startedAt) / 1000);
      return response;
    };
    return result instanceof Promise ? result.then(report) : report(result);
  };

  const handle: Handle = (request) => {
    const startedAt = answered ? performance.now() : 0;
    let result: Answer;
    let match: Match | null = null;
    try {
      identify(request);
      match = router.match(request.method, request.path);
      result = match.metered
        ? admit(request, match)
        : match.kind === 'handler' && match.meteredOnError
        ? meteredIfError(request, match)
        : answer(request, match, null);
    } catch (error) {
      result = outside(request, error);
    }
    return answered ? observe(request, result, match?.template ?? null, startedAt) : result;
  };

  return {
    handle,
    async reject(clientIp, error) {
      // A request the adapter could not parse: no path, no headers, no route.
      const startedAt = answered ? performance.now() : 0;
      const request: CoreRequest = { method: 'GET', path: '', headers: {}, clientIp };
      identify(request);
      const response = decorate(request, error.toResponse(), await gate.check(request));
      return answered ? observe(request, response, null, startedAt) : response;
    },
  };
}
