/**
 * The app's wiring: the context every operation is given, the route table, the rate limiter and CORS,
 * handed to the request pipeline (pipeline.ts), which answers every request.
 *
 * @module
 */
import { ALIAS_PREFIX, API_ROUTES, type ApiRoute, V1_PREFIX } from './api.ts';
import { routerPath } from './endpoint.ts';
import { type AppOptions, createContext } from './app-context.ts';
import type { AppContext, Operation } from './context.ts';
import { createCors } from './http/cors.ts';
import { deprecationHeaders } from './http/deprecation.ts';
import { AnsweringError, type ApiError } from './http/errors.ts';
import type { CoreRequest, CoreResponse } from './http/http.ts';
import { discoveryRoutes } from './operations/discovery.ts';
import { PROBE_ROUTES } from './operations/probes.ts';
import { WINDOWS_ONLY_PATH, windowsOnly } from './operations/windows-only.ts';
import { UPDATE_FILE_ROUTES } from './updates/files-endpoints.ts';
import { type ChannelRoot, newestRoots } from './updates/served-files.ts';
import { checkoutStatus } from './operations/checkout.ts';
import { isAppPath } from './http/paths.ts';
import { createOperatorPipeline } from './operator/app.ts';
import { operatorTokensOf } from './operator/named-tokens.ts';
import { createPipeline, rateLimitGate } from './pipeline/pipeline.ts';
import { createAddressCheck } from './clients/client-address.ts';
import type { AppEvent, Clock, GatewayPages, Logger, PaymentGateway } from './ports/ports.ts';
import type { Answer } from './http/maybe.ts';
import { createRateLimiter, PUBLIC_API_POLICY } from './pipeline/rate-limit.ts';
import { createRouter, type Handler } from './http/router.ts';
import { createResendStep } from './mail/resend-requests.ts';
import { createShippedRequestsStep, unsubscribeAddress } from './mail/shipped-requests.ts';
import type { UsageTally } from './budgets/usage.ts';
import { releasesOn } from './releases/channels.ts';

export type { AppOptions };

/** A ready app. */
export interface App {
  /**
   * Answers one request: synchronously when nothing had to wait (static content, 404/405/429 with
   * counters in memory), else a promise; `await` takes both. Never throws or rejects: every fault becomes
   * a JSON error response.
   */
  handle(request: CoreRequest): Answer;
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
  /** Writes what is counted in memory and not yet stored (downloads and update checks); call it before closing the storage. */
  flush(): Promise<void>;
  /**
   * The background step of POST licenses/resend (core/mail/resend-requests.ts): takes the recorded
   * requests, looks up each address's orders and writes its mail to the outbox; resolves with the number
   * of requests taken. The standalone server runs it every second; a host that embeds the app runs it
   * on a timer of its own, or leaves it to a server on the same database.
   */
  processResendRequests(): Promise<number>;
  /**
   * Tells the requesters whose linked request shipped since (core/mail/shipped-requests.ts): one mail each,
   * once; resolves with how many were told. The standalone server's mail loop runs it every minute.
   */
  processShippedRequests(): Promise<number>;
  /** The RFC 8058 one-click unsubscribe address of a message, when its recipient can stop such mail (the mail worker's `listUnsubscribe`). */
  listUnsubscribe(mail: { kind: string; to: string }): string | undefined;
  /**
   * Reads the stored releases again now, which also announces each ramp step reached since the last read
   * (core/releases/ramp-announcements.ts), and the update files stored since the last read (the files under
   * /updates/ are served from memory only). Requests read releases as they come; the standalone server
   * calls this every second, so that an instance nobody asks announces a step and serves new files too.
   */
  refreshReleases(): Promise<void>;
  /**
   * Resolves when the cache purges under way are done (`updates.purge`, core/updates/cache-purges.ts): each
   * is started by a refresh and never waited for by it. At once without a purge.
   */
  purgesSettled(): Promise<void>;
  /** The newest root each update channel serves (null: none yet), as of the last refresh. */
  channelRoots(): ChannelRoot[];
  /** The downloads and update checks counted since start, for metrics (core/budgets/usage.ts). */
  readonly usage: Pick<UsageTally, 'totals' | 'writing'> | null;
  /**
   * The operator API over the same ports (core/operator), for a listener of its own; null without
   * `operatorToken`. Never route it on the public listener.
   */
  readonly operator: App | null;
}

const consoleLogger: Logger = {
  info: (message, fields) => console.log(JSON.stringify({ level: 'info', message, ...fields })),
  warn: (message, fields) => console.warn(JSON.stringify({ level: 'warn', message, ...fields })),
  error: (message, fields) => console.error(JSON.stringify({ level: 'error', message, ...fields })),
};

const systemClock: Clock = { now: () => Date.now() };

const ignore = (): void => {};

/**
 * Creates an app: syncs the roadmap content into storage, loads (or creates) the stored secrets, and
 * routes every endpoint into the pipeline (pipeline.ts).
 *
 * @param options The ports and settings.
 * @returns The app, ready to handle requests.
 */
export function createApp(options: AppOptions): Promise<App> {
  return createAppOf(API_ROUTES, options);
}

/**
 * createApp over a given public table instead of API_ROUTES; not exported from the package. The recipe
 * test (test/core/endpoint-recipe.test.ts) adds a throwaway row with it and finds the row routed,
 * documented and callable from the client.
 *
 * @param apiRoutes The public table: API_ROUTES, or API_ROUTES and a row of a test.
 * @param options The ports and settings.
 * @returns The app, ready to handle requests.
 */
export async function createAppOf(apiRoutes: readonly ApiRoute[], options: AppOptions): Promise<App> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger;
  const counted = options.observer?.count?.bind(options.observer);
  const count = counted ? (event: AppEvent, times = 1) => counted(event, times) : ignore;
  const storageFault = () => count('storage_error');
  const storage = options.storage;
  const context = await createContext(options, clock, logger, count, storageFault);
  const seeded = await storage.roadmap.syncRoadmap(options.content.roadmap);
  if (!seeded.first && (seeded.applied.length > 0 || seeded.hidden.length > 0)) {
    // Never silent: a start that changes the stored roadmap says which features (docs/operating.md).
    logger.info('roadmap: the config file changed features, applied', { applied: seeded.applied, hidden: seeded.hidden });
  }

  const limiter = createRateLimiter(options.rateLimit ?? PUBLIC_API_POLICY, storage.rateLimits, logger, () => clock.now(), storageFault);
  const { router, aliasNotices } = routeEndpoints(context, options.gateway, apiRoutes);
  const pipeline = createPipeline({
    router,
    gate: rateLimitGate(limiter, count),
    cors: createCors(options.corsOrigins ?? []),
    aliasNotices,
    logger,
    count,
    answered: options.observer?.answered?.bind(options.observer),
    checkAddress: createAddressCheck(options.clientAddress ?? 'shared', logger, count),
  });

  const tokens = operatorTokensOf(options);
  const operator = tokens.length === 0 ? null : createOperatorPipeline(context, tokens, options.operatorProxies ?? null, options.operatorRoutes);
  const resendStep = createResendStep({ mail: storage.mail, orders: storage.orders, settings: context.mail, clock, logger });
  const shippedStep = createShippedRequestsStep({
    storage,
    changes: context.changes,
    productName: context.mail.productName,
    publicBaseUrl: context.publicBaseUrl,
    tokens: context.unsubscribeTokens,
    html: context.mail.html,
    clock,
    logger,
    enabled: context.requestersTold,
  });
  return {
    bodyLimit: context.bodyLimit,
    handle: pipeline.handle,
    reject: pipeline.reject,
    drain: () => context.readiness.drain(),
    flush: () => context.usage.flush(),
    processResendRequests: resendStep,
    processShippedRequests: shippedStep,
    listUnsubscribe: (mail) => (mail.kind === 'shipped' ? unsubscribeAddress(context.publicBaseUrl, context.unsubscribeTokens.tokenFor(mail.to)) : undefined),
    refreshReleases: () => refresh(context),
    purgesSettled: () => context.cachePurges?.settled() ?? Promise.resolve(),
    channelRoots: () => newestRoots(context.updateFiles),
    usage: context.usage,
    operator: operator && {
      bodyLimit: context.bodyLimit,
      handle: operator.handle,
      reject: operator.reject,
      drain: () => {},
      flush: async () => {},
      processResendRequests: async () => 0,
      processShippedRequests: async () => 0,
      listUnsubscribe: () => undefined,
      refreshReleases: () => refresh(context),
      purgesSettled: () => context.cachePurges?.settled() ?? Promise.resolve(),
      channelRoots: () => newestRoots(context.updateFiles),
      usage: null,
      operator: null,
    },
  };
}

/**
 * Reads the stored releases and update files again (the standalone server does it every second), and
 * signs the update files that are due. A failed signing is logged and tried at the next refresh: the
 * files stored before stay served until they expire.
 */
async function refresh(context: AppContext): Promise<void> {
  await context.releases.refresh();
  const files = context.updateFiles;
  await files.refresh(context.clock.now());
  const publish = context.updatePublisher;
  if (publish === null) return;
  const purges = context.cachePurges;
  for (const channel of files.names) {
    try {
      const outcome = await publish(channel, files.channel(channel)!, releasesOn(files.names, channel, context.releases.known()));
      if (outcome.kind === 'signed' || outcome.kind === 'lost-race') await files.refresh(context.clock.now());
      // Only the instance whose change committed purges, once it serves the new files itself.
      if (outcome.kind === 'signed') purges?.request(channel);
    } catch (error) {
      context.logger.warn('update files: signing failed; the stored files stay served, and it is tried again', { channel, error: String(error) });
    }
  }
  purges?.start();
}

/** An operation's answer, a refusal included (as the pipeline would send it). */
async function answered(operation: Operation, request: CoreRequest): Promise<CoreResponse> {
  try {
    return await operation(request);
  } catch (error) {
    if (error instanceof AnsweringError) return error.toResponse();
    throw error;
  }
}

/**
 * The router of one app: every public endpoint under /api/v1 and its /api alias, the update files (metered
 * on error only), the probes (not metered), the discovery documents, the Windows-only page and the
 * gateway's pages.
 */
function routeEndpoints(context: AppContext, gateway: PaymentGateway, apiRoutes: readonly ApiRoute[]) {
  const router = createRouter();
  const aliasNotices = new Map<string, Record<string, string>>();
  const documented = [...apiRoutes, ...UPDATE_FILE_ROUTES, ...PROBE_ROUTES];
  const routes: ApiRoute[] = [...documented, ...discoveryRoutes(documented)];
  for (const route of routes) {
    const handler: Handler = route.create(context);
    // 'errors' (the update files): outside every quota, but their errors are metered (docs/decisions.md "The update files are files").
    const flags = route.metered === 'errors'
      ? { metered: false, meteredOnError: true }
      : { metered: route.metered !== false, readsOnly: route.readsOnly === true };
    if (!route.versioned) {
      router.add(route.method, routerPath(route.path), handler, flags);
      continue;
    }
    router.add(route.method, V1_PREFIX + route.path, handler, flags);
    router.add(route.method, ALIAS_PREFIX + route.path, handler, flags);
    if (context.aliasDeprecation) {
      aliasNotices.set(ALIAS_PREFIX + route.path, deprecationHeaders(context.aliasDeprecation, V1_PREFIX + route.path));
    }
  }
  router.add('GET', WINDOWS_ONLY_PATH, windowsOnly(context));
  const status = checkoutStatus(context);
  const pages: GatewayPages = { checkoutStatus: (request) => answered(status, request) };
  for (const route of gateway.routes ?? []) {
    // Hosts forward only isAppPath's paths: a page outside them would be unreachable behind Express or Next.js.
    if (!isAppPath(route.path)) throw new Error(`gateway ${gateway.name}: route ${route.path} lies outside APP_PATH_PREFIXES (use /checkout/...)`);
    router.add(route.method, route.path, (request, params) => route.handle(request, params, pages));
  }
  return { router, aliasNotices };
}

export type { Operation };
