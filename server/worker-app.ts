/**
 * The Cloudflare Worker program's wiring: the content of a config file bundled into the Worker; storage
 * on PostgreSQL (through Hyperdrive, or a plain DATABASE_URL) or, without a database, memory (one per
 * isolate); the payment simulator or Stripe. Settings that differ per deployment come from the Worker's
 * variables, secrets and bindings (see wrangler.toml and docs/edge.md).
 *
 * @module
 */
import * as v from 'valibot';
import { WORKER_MEMORY_LIMITS } from '../adapters/memory/caps.ts';
import { mailHtml } from '../adapters/mail-html/index.ts';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createPostgresClient } from '../adapters/postgres/index.ts';
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { requireSchema } from '../adapters/sql/schema-version.ts';
import { createStripeGateway, type LiveOffer } from '../adapters/stripe/index.ts';
import { createWorker, type WorkerContext, type WorkerModule } from '../adapters/workers/index.ts';
import { createRequestStorage, type RequestStorage } from '../adapters/workers/request-storage.ts';
import { type App, createApp } from '../core/app.ts';
import { createLicenseIssuer } from '../core/licensing/license.ts';
import type { Clock, Logger, PaymentGateway, Storage } from '../core/ports/ports.ts';
import { type Pricing, VersionString } from '../core/schemas/responses.ts';
import { appOptionsOf, fileSettings, parseConfigFile, updateOptionsOf } from './config-schema.ts';
import { createLogger } from './logger.ts';
import { openLiveOffer } from './offer.ts';
import { ownSiteConfigured, type PaymentConfig, paymentConfig } from './payment-config.ts';

/** The Worker's variables, secrets and bindings. */
export interface SiteWorkerEnv {
  /** The current desktop version (a Worker has no version file to read). Required. */
  PRODUCT_VERSION?: string;
  /** The public address of the API; the config file's publicBaseUrl otherwise. */
  PUBLIC_BASE_URL?: string;
  /** Secret of the voter hashes; kept in the database (or generated per isolate on memory) otherwise. */
  VOTER_SECRET?: string;
  /** Ed25519 license signing key, base64 PKCS#8; kept in the database (or per isolate on memory) otherwise. */
  LICENSE_SIGNING_KEY?: string;
  /** Cloudflare Hyperdrive in front of PostgreSQL: the production way to the database. */
  HYPERDRIVE?: { connectionString: string };
  /** A postgres:// URL reached directly over Workers' TCP sockets (local runs); HYPERDRIVE wins. */
  DATABASE_URL?: string;
  /** The schema of the tables with DATABASE_URL; "public" by default. */
  DATABASE_SCHEMA?: string;
  /** "simulator" (default) or "stripe", with STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE. */
  PAYMENT_GATEWAY?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
}

/** How often an isolate runs a retention pass, after an answer. */
const RETENTION_EVERY_MS = 60_000;

/** The standalone server's JSON lines, through the console (a Worker's log). */
const logger: Logger = createLogger(
  'info',
  (text) => console.log(text.trimEnd()),
  (text) => console.error(text.trimEnd()),
);

/** The database of an isolate, from its bindings; null for memory storage. */
function openDatabase(env: SiteWorkerEnv): RequestStorage | null {
  const hyperdrive = env.HYPERDRIVE?.connectionString;
  const url = hyperdrive ?? env.DATABASE_URL?.trim();
  if (!url) return null;
  return createRequestStorage(() =>
    createPostgresClient({
      url,
      schema: env.DATABASE_SCHEMA || 'public',
      // One request's statements run one after another; Hyperdrive pools the real connections.
      maxConnections: 1,
      // Each request connects anew: no extra round trip to read array types, and a prepared statement
      // would not outlive the request.
      fetchTypes: false,
      preparedStatements: false,
      // Hyperdrive pools in transaction mode: the timeout and search_path come from the database role.
      startupParameters: hyperdrive === undefined,
      // Closed once the request and its background work are done: a write it gave up on is dropped then.
      perRequest: true,
      // Nothing is batched across requests, so concurrent votes on one feature queue for its row, one
      // statement each: 40 at once, about 25 ms each on a busy database, make the last wait 1 s.
      statementTimeoutMs: 5000,
    })
  );
}

/**
 * The payment gateway. The simulator ends the round trip on this Worker's own thanks page when the file
 * names no site of the vendor's own (as the standalone server does, docs/configuration.md).
 */
function openGateway(payment: PaymentConfig, storage: Storage, publicBaseUrl: string, clock: Clock, offer: Pricing, isExample: boolean): PaymentGateway {
  if (payment.gateway === 'simulator') {
    const thanksPage = !ownSiteConfigured(payment.returnTo, isExample);
    return createSimulatorGateway({ storage, publicBaseUrl, clock, returnTo: payment.returnTo, thanksPage, offer, logger });
  }
  return createStripeGateway({ ...payment, logger, clock });
}

/** How often an isolate reads the releases and update files again (after an answer, never in the background). */
const FILES_READ_EVERY_MS = 1000;

/** What tests change in a Worker. */
export interface SiteWorkerOptions {
  /** Where time comes from for the live offer, Stripe's status cache and its signatures; the system's by default. */
  clock?: Clock;
  /** The storage without a database binding: memory with an isolate's caps by default (a host may keep its own). */
  storage?: Storage;
}

/**
 * Creates the Worker from a config file's parsed JSON.
 *
 * @param configFile The config file, as the standalone server reads it.
 * @returns The module Worker to `export default`.
 */
export function createSiteWorker(configFile: unknown, options: SiteWorkerOptions = {}): WorkerModule<SiteWorkerEnv> {
  const clock = options.clock ?? { now: () => Date.now() };
  /** The isolate's database: undefined until its first request, null on memory storage. */
  let database: RequestStorage | null | undefined;
  let live: LiveOffer | null = null;
  let retentionDueAt = 0;
  let filesDueAt = 0;
  /** The app once built (null before, and on a schema the Worker refused: no retention pass then). */
  let built: App | null = null;

  const inner = createWorker(async (env: SiteWorkerEnv) => {
    const config = parseConfigFile(configFile, 'the bundled config file');
    const settings = fileSettings(config);
    const version = v.parse(VersionString, env.PRODUCT_VERSION);
    const publicBaseUrl = env.PUBLIC_BASE_URL ?? settings.publicBaseUrl ?? 'http://localhost:8787';
    const payment = paymentConfig({ ...env } as Record<string, string | undefined>, config.stripe, 'the bundled config file', config.checkoutReturn);
    if (env.HYPERDRIVE && env.DATABASE_SCHEMA) {
      throw new Error(
        'DATABASE_SCHEMA is not sent through Hyperdrive: set the search_path of the database role instead (see https://github.com/converter-site/converter-site-api/blob/main/docs/edge.md)',
      );
    }
    if (database) await requireSchema(database.current().client);
    // Memory holds what an isolate's 128 MB can spare, not the standalone server's caps (~300 MB).
    const storage = database?.storage ?? options.storage ?? createMemoryStorage(WORKER_MEMORY_LIMITS);
    const { content } = settings;
    live = await openLiveOffer({ payment, offer: content.offer, clock, logger });
    const app = await createApp({
      ...appOptionsOf(settings),
      version: { current: () => version },
      storage,
      gateway: openGateway(payment, storage, publicBaseUrl, clock, content.offer, config.exampleContent === true),
      clock,
      logger,
      publicBaseUrl,
      mailHtml,
      updates: updateOptionsOf(settings),
      ...(live ? { offer: live } : {}),
      ...(env.VOTER_SECRET ? { voterSecret: env.VOTER_SECRET } : {}),
      ...(env.LICENSE_SIGNING_KEY ? { licenses: await createLicenseIssuer(env.LICENSE_SIGNING_KEY) } : {}),
    });
    built = app;
    // Building the app read every release and file: the next read is due a second on.
    filesDueAt = clock.now() + FILES_READ_EVERY_MS;
    return app;
  });

  /** A retention pass at most once a minute per isolate, after an answer, on that request's client. */
  const retention = (db: RequestStorage): void => {
    const now = clock.now();
    if (!built || now < retentionDueAt) return;
    retentionDueAt = now + RETENTION_EVERY_MS;
    db.background(
      db
        .current()
        .runRetention()
        .then(
          (report) => {
            if (report.rateLimitWindows + report.checkoutSessions > 0) logger.info('retention pass', { ...report });
          },
          (error: unknown) => logger.warn('retention pass failed; retrying later', { error: String(error) }),
        ),
    );
  };

  /**
   * The stored releases and update files read again at most once a second per isolate, after an answer:
   * a Worker has no background loop, and it serves the update files from memory (it signs none).
   */
  const refreshFiles = (ctx: WorkerContext, db: RequestStorage | null): void => {
    // The isolate's own memory storage: nothing else writes its releases or files.
    if (!db && options.storage === undefined) return;
    const now = clock.now();
    if (!built || now < filesDueAt) return;
    filesDueAt = now + FILES_READ_EVERY_MS;
    const reading = built.refreshReleases().catch((error: unknown) => logger.warn('could not read the releases and update files', { error: String(error) }));
    if (db) db.background(reading);
    else ctx.waitUntil(reading);
  };

  /** A read of the live prices this request started (or found under way) may end after the answer. */
  const keepReading = (ctx: WorkerContext, db: RequestStorage | null): void => {
    const reading = live?.pending();
    if (!reading) return;
    if (db) db.background(reading);
    else ctx.waitUntil(reading);
  };

  return {
    async fetch(request, env, ctx: WorkerContext = { waitUntil: () => undefined }) {
      // Not `??=`: that would read the bindings again on every request of a Worker on memory storage (null).
      if (database === undefined) database = openDatabase(env);
      const db = database;
      if (!db) {
        const response = await inner.fetch(request, env, ctx);
        keepReading(ctx, null);
        refreshFiles(ctx, null);
        return response;
      }
      return db.run(ctx, async () => {
        const response = await inner.fetch(request, env, ctx);
        keepReading(ctx, db);
        retention(db);
        refreshFiles(ctx, db);
        // The usage counts this request wrote (core/budgets/usage.ts) go on the request's client: keep it open for them.
        if (built?.usage) db.background(built.usage.writing());
        return response;
      });
    },
  };
}
