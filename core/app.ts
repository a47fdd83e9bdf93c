/**
 * The app: one `handle` function from a request-like input to a response-like output, wrapping every
 * answer in the rate limit, CORS and deprecation notices.
 *
 * @module
 */
import { ALIAS_PREFIX, API_ROUTES, V1_PREFIX, type ApiRoute } from './api.ts';
import { DEFAULT_BODY_LIMIT } from './body.ts';
import { DEFAULT_OPEN_CHECKOUTS_PER_CLIENT } from './checkout-cap.ts';
import { clientKey } from './client-ip.ts';
import type { AppContext, Operation } from './context.ts';
import { createCors, type Cors } from './cors.ts';
import { deprecationHeaders, type AliasDeprecation } from './deprecation.ts';
import { ApiError, encodeError, errorAnswer, errorResponse, internalError } from './errors.ts';
import type { CoreRequest, CoreResponse } from './http.ts';
import { randomSecret, type SyncHmacSha256 } from './keyed-hash.ts';
import { createLicenseIssuer, generateSigningKey } from './license.ts';
import { reportingRateLimits, reportingStorage } from './observed-storage.ts';
import { discoveryRoutes } from './operations/discovery.ts';
import { createProbes, PROBE_ROUTES } from './operations/probes.ts';
import { windowsOnly, WINDOWS_ONLY_PATH } from './operations/windows-only.ts';
import { isAppPath } from './paths.ts';
import type {
  AppEvent,
  Clock,
  MaybePromise,
  LicenseIssuer,
  Logger,
  Observer,
  OfferSource,
  PaymentGateway,
  RateLimitStore,
  Storage,
  VersionSource,
} from './ports.ts';
import {
  createRateLimiter,
  PUBLIC_API_POLICY,
  type RateLimitDecision,
  type RateLimitPolicy,
} from './rate-limit.ts';
import { createReadiness } from './readiness.ts';
import { remember } from './remember.ts';
import { requestIdFor } from './request-id.ts';
import { addSecurityHeaders } from './security-headers.ts';
import { timedAnswers } from './timed-answers.ts';
import { createRouter, trimSlashes, type Handler, type Match } from './router.ts';
import type { SiteContent } from './schemas/content.ts';
import { createVoterId } from './voter-id.ts';

/** Everything an app is made of. Only content, version, storage and gateway are required. */
export interface AppOptions {
  content: SiteContent;
  version: VersionSource;
  storage: Storage;
  gateway: PaymentGateway;
  /** Where GET pricing reads the offer; by default the fixed `content.offer`. */
  offer?: OfferSource;
  /** Signs license keys; by default an Ed25519 key kept in storage under "license-signing-key". */
  licenses?: LicenseIssuer;
  clock?: Clock;
  logger?: Logger;
  /** The quota; 120 requests per 60 s by default. */
  rateLimit?: RateLimitPolicy;
  /** Where the rate-limit counters live; `storage.rateLimits` by default. */
  rateLimitStore?: RateLimitStore;
  /** Origins allowed to call from a browser; none by default. */
  corsOrigins?: readonly string[];
  /** Marks the unversioned /api aliases deprecated; off by default. */
  aliasDeprecation?: AliasDeprecation | null;
  /** The largest request body in bytes; 16 KiB by default. */
  bodyLimit?: number;
  /** How long an unpaid checkout session stays open; 24 hours by default. */
  checkoutTtlMs?: number;
  /** The most open (pending, unexpired) checkout sessions one client may hold; 10 by default. */
  openCheckoutsPerClient?: number;
  /** The public address of the API for the discovery documents; http://localhost:8080 by default. */
  publicBaseUrl?: string;
  /** Where the repository's docs/ folder is published, for links in /llms.txt; none by default. */
  docsUrl?: string;
  /** The secret of voter hashes; by default one generated and kept in storage under "voter-secret". */
  voterSecret?: string;
  /**
   * A synchronous HMAC-SHA-256 for voter hashes, e.g. node:crypto's (see `SyncHmacSha256`); Web Crypto,
   * which is asynchronous, by default. Same ids either way.
   */
  hmacSha256?: SyncHmacSha256;
  /** Watches every answer and counts events (metrics, the access log); none by default. */
  observer?: Observer;
}

/** A ready app. */
export interface App {
  /** Answers one request. Never rejects: every fault becomes a JSON error response. */
  handle(request: CoreRequest): Promise<CoreResponse>;
  /**
   * The same as `handle`, but synchronous when no port has to wait (memory counters, static content):
   * adapters on a hot path use it to spare a promise and a microtask turn per request.
   */
  answer(request: CoreRequest): MaybePromise<CoreResponse>;
  /** The largest body the app accepts; adapters read at most one byte more. */
  readonly bodyLimit: number;
  /**
   * Answers a request the adapter could not parse (bad HTTP, too slow, headers too large): counted
   * against the client's quota and given the rate-limit headers like any other answer.
   */
  reject(clientIp: string, error: ApiError): Promise<CoreResponse>;
  /**
   * Shutdown began: GET /readyz answers 503 shutting_down from now on, so that balancers drain this
   * instance while it still serves. Call it before the listener stops accepting.
   */
  drain(): void;
}

const consoleLogger: Logger = {
  info: (message, fields) => console.log(JSON.stringify({ level: 'info', message, ...fields })),
  warn: (message, fields) => console.warn(JSON.stringify({ level: 'warn', message, ...fields })),
  error: (message, fields) => console.error(JSON.stringify({ level: 'error', message, ...fields })),
};

const systemClock: Clock = { now: () => Date.now() };

/** How many unknown paths keep their encoded 404 body: a client repeating one costs a lookup. */
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

const notFoundBody = (quoted: string): Uint8Array =>
  encodeError('not_found', `No API endpoint exists at ${JSON.stringify(quoted)}.`);

const ignore = (): void => {};

/** The configured offer, always the same object. */
const fixedOffer = (offer: SiteContent['offer']): OfferSource => ({ current: () => offer });


/**
 * Creates an app: syncs the roadmap content into storage and loads (or creates) the stored secrets.
 *
 * @param options The ports and settings.
 * @returns The app, ready to handle requests.
 */
export async function createApp(options: AppOptions): Promise<App> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger;
  const observer = options.observer;
  const counted = observer?.count?.bind(observer);
  const count = counted ? (event: AppEvent, times = 1) => counted(event, times) : ignore;
  const storageFault = () => count('storage_error');
  const storage = counted ? reportingStorage(options.storage, storageFault) : options.storage;
  const secretKey = options.voterSecret ?? (await storage.secret('voter-secret', randomSecret));
  const signingKey = options.licenses ? null : await storage.secret('license-signing-key', generateSigningKey);
  const context: AppContext = {
    content: options.content,
    offer: options.offer ?? fixedOffer(options.content.offer),
    version: options.version,
    storage,
    gateway: options.gateway,
    licenses: options.licenses ?? (await createLicenseIssuer(signingKey!)),
    clock,
    logger,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    checkoutTtlMs: options.checkoutTtlMs ?? 24 * 60 * 60 * 1000,
    openCheckoutsPerClient: options.openCheckoutsPerClient ?? DEFAULT_OPEN_CHECKOUTS_PER_CLIENT,
    publicBaseUrl: (options.publicBaseUrl ?? 'http://localhost:8080').replace(/\/+$/, ''),
    docsUrl: options.docsUrl?.replace(/\/+$/, '') ?? null,
    aliasDeprecation: options.aliasDeprecation ?? null,
    voterId: await createVoterId(secretKey, options.hmacSha256),
    readiness: createReadiness(() => storage.ping(), () => clock.now(), logger),
    count,
  };
  await storage.syncRoadmap(options.content.roadmap);

  const policy = options.rateLimit ?? PUBLIC_API_POLICY;
  const limiter = createRateLimiter(
    policy,
    options.rateLimitStore && counted ? reportingRateLimits(options.rateLimitStore, storageFault) : (options.rateLimitStore ?? storage.rateLimits),
    logger,
    () => clock.now(),
  );
  const cors = createCors(options.corsOrigins ?? []);
  const router = createRouter();
  const aliasNotices = new Map<string, Record<string, string>>();
  const routes: ApiRoute[] = [...API_ROUTES, ...discoveryRoutes([...API_ROUTES, ...PROBE_ROUTES])];
  const readers = new Set<Handler>();
  for (const route of routes) {
    const handler: Handler = route.create(context);
    if (route.readsOnly) readers.add(handler);
    if (!route.versioned) {
      router.add(route.method, route.path, handler);
      continue;
    }
    router.add(route.method, V1_PREFIX + route.path, handler);
    router.add(route.method, ALIAS_PREFIX + route.path, handler);
    if (context.aliasDeprecation) {
      aliasNotices.set(ALIAS_PREFIX + route.path, deprecationHeaders(context.aliasDeprecation, V1_PREFIX + route.path));
    }
  }
  router.add('GET', WINDOWS_ONLY_PATH, windowsOnly(context));
  for (const route of options.gateway.routes ?? []) {
    // Hosts forward only isAppPath's paths: a page outside them would be unreachable behind Express or Next.js.
    if (!isAppPath(route.path)) throw new Error(`gateway ${options.gateway.name}: route ${route.path} lies outside APP_PATH_PREFIXES (use /checkout/...)`);
    router.add(route.method, route.path, route.handle);
  }
  // Probes are answered before the rate limiter: no client's quota pays for a balancer's checks.
  const probes = createProbes(context);

  const notFound = new Map<string, Uint8Array>();
  const dispatch = (request: CoreRequest, match: Match = router.match(request.method, request.path)): MaybePromise<CoreResponse> => {
    if (match.kind === 'handler') return match.handler(request, match.params);
    if (match.kind === 'not_found') {
      // Keyed by the quoted path, so that the cache holds at most NOT_FOUND_CACHE_SIZE short keys.
      const quoted = quotedPath(request.path);
      return errorAnswer('not_found', notFound.get(quoted) ?? remember(notFound, NOT_FOUND_CACHE_SIZE, quoted, notFoundBody(quoted)));
    }
    if (request.method === 'OPTIONS') return cors.options(request, match.allow);
    return errorResponse(
      'method_not_allowed',
      `${request.method} is not allowed on ${request.path}; use ${match.allow}.`,
      undefined,
      { allow: match.allow },
    );
  };

  const finish = (request: CoreRequest, response: CoreResponse, decision: RateLimitDecision): CoreResponse => {
    Object.assign(response.headers, decision.headers);
    response.headers['x-request-id'] = request.requestId!;
    // Every answer holds per-client rate-limit state, so no shared cache may keep it.
    response.headers['cache-control'] = 'no-store';
    addSecurityHeaders(response.headers);
    cors.decorate(request, response);
    const notice = aliasNotices.size > 0 ? aliasNotices.get(trimSlashes(request.path)) : undefined;
    if (notice) Object.assign(response.headers, notice);
    if (request.method === 'HEAD') response.body = null;
    return response;
  };

  /** The answer to an unexpected fault: logged here, never shown to the client. */
  const fault = (request: CoreRequest, error: unknown): CoreResponse => {
    if (error instanceof ApiError) return error.toResponse();
    logger.error('unhandled error', {
      requestId: request.requestId,
      method: request.method,
      path: request.path,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return internalError().toResponse();
  };

  /**
   * While the rate-limit hit is on its way (counters in a database): the route, matched once, and the
   * answer of a read-only operation started at once (see `readsOnly` in api.ts).
   */
  interface Early {
    match: Match;
    answer?: MaybePromise<CoreResponse>;
  }
  const startEarly = (request: CoreRequest): Early => {
    const match = router.match(request.method, request.path);
    if (match.kind !== 'handler' || !readers.has(match.handler)) return { match };
    let answer: MaybePromise<CoreResponse>;
    try {
      answer = match.handler(request, match.params);
    } catch (error) {
      answer = Promise.reject(error);
    }
    // Awaited by `run` when the hit is admitted; a refused request's failed read is nobody's concern.
    if (answer instanceof Promise) answer.catch(ignore);
    return { match, answer };
  };

  const run = (request: CoreRequest, decision: RateLimitDecision, early?: Early): MaybePromise<CoreResponse> => {
    if (!decision.allowed) {
      count('rate_limited');
      return finish(request, limiter.refuse(decision), decision);
    }
    let result: MaybePromise<CoreResponse>;
    try {
      result = early?.answer ?? dispatch(request, early?.match);
    } catch (error) {
      return finish(request, fault(request, error), decision);
    }
    if (!(result instanceof Promise)) return finish(request, result, decision);
    return result.then(
      (response) => finish(request, response, decision),
      (error: unknown) => finish(request, fault(request, error), decision),
    );
  };

  const outside = (request: CoreRequest, error: unknown): CoreResponse => {
    logger.error('request failed outside an operation', { requestId: request.requestId, error: String(error) });
    const response = internalError().toResponse();
    response.headers['x-request-id'] = request.requestId!;
    return response;
  };

  /** The whole pipeline, with no promise at all when neither the counter store nor the operation waits. */
  const respond = (request: CoreRequest): MaybePromise<CoreResponse> => {
    try {
      if (probes.has(request.path)) return probes.answer(request);
      const decision = limiter.check(clientKey(request.clientIp));
      if (!(decision instanceof Promise)) return run(request, decision);
      const early = startEarly(request);
      return decision.then((d) => run(request, d, early)).catch((error: unknown) => outside(request, error));
    } catch (error) {
      return outside(request, error);
    }
  };

  const routeOf = (request: CoreRequest): string | null =>
    probes.has(request.path) ? request.path : router.template(request.path);
  const answered = observer?.answered?.bind(observer);
  const timed = timedAnswers(respond, answered, routeOf);
  const answer = (request: CoreRequest): MaybePromise<CoreResponse> => {
    request.requestId = requestIdFor(request.headers);
    return timed(request);
  };

  return {
    bodyLimit: context.bodyLimit,
    reject(clientIp, error) {
      // A request the adapter could not parse: no path, no headers, no route. Rare, so built per call.
      const request: CoreRequest = { method: 'GET', path: '', headers: {}, clientIp, requestId: requestIdFor({}) };
      const refuse = async (refused: CoreRequest) => finish(refused, error.toResponse(), await limiter.check(clientKey(clientIp)));
      return timedAnswers(refuse, answered, () => null)(request) as Promise<CoreResponse>;
    },
    answer,
    async handle(request) {
      return answer(request);
    },
    drain: () => context.readiness.drain(),
  };
}

export type { Operation };
