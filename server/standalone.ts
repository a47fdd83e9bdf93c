/**
 * The standalone server whatever the runtime: storage (memory, PGlite or Postgres, chosen by
 * storage-config.ts), signing key, version file, gateway and offer are opened and checked first, so a
 * configuration error stops the start before any port is bound; the runtime binds its socket next, so
 * that with PORT=0 the public address names the port actually bound; the app is built last, and
 * requests that arrive before it is ready wait for it.
 *
 * @module
 */
import { operatorPages } from '../adapters/operator-pages/index.ts';
import { mailHtml } from '../adapters/mail-html/index.ts';
import { openVersionFile } from '../adapters/node/version-file.ts';
import { type App, createApp } from '../core/app.ts';
import type { Clock, Logger, Storage, VersionSource } from '../core/ports/ports.ts';
import type { ChannelRoot } from '../core/updates/served-files.ts';
import { ConfigError, type ServerConfig } from './config.ts';
import { appOptionsOf, updateOptionsOf } from './config-schema.ts';
import { openGateway } from './gateway.ts';
import { ownSiteConfigured } from './payment-config.ts';
import { startEventDelivery } from './event-delivery.ts';
import { startBackgroundLoop } from './background-loop.ts';
import { type MailDelivery, startMailDelivery } from './mail-delivery.ts';
import { openSigningKey } from './license-key.ts';
import { type OnlineKey, openOnlineKey } from './updates-key.ts';
import { openOffer } from './offer.ts';
import { listenMetrics, type MetricsListener } from './metrics-listener.ts';
import { createObservability } from './observability.ts';
import { openStorage } from './open-storage.ts';
import { openCachePurge } from './purge-config.ts';
import { webhookAddressPolicy } from './webhook-addresses.ts';
import { writeUsageOnTimer } from './usage-writer.ts';

/** A socket a runtime has bound, serving the app once it is ready. */
export interface BoundServer {
  /** Where the socket is bound, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The port actually bound (PORT=0 picks one). */
  port: number;
  /** Stops accepting connections and lets requests in flight finish. */
  close(): Promise<void>;
}

/**
 * Binds a runtime's server to the configured host and port.
 *
 * @param app The app, resolved once it is built; a handler awaits it for requests that come earlier.
 * @returns The bound server.
 */
export type Bind = (app: Promise<App>) => Promise<BoundServer>;

/** A standalone server that is serving. */
export interface Standalone {
  /** Where the socket is bound. */
  url: string;
  /** Where GET /metrics is served (METRICS_PORT), or null. */
  metricsUrl: string | null;
  /** The public address used in links (checkout pages, discovery documents). */
  publicBaseUrl: string;
  /** The operator app (OPERATOR_PORT set), for the runtime to serve on its own listener; else null. */
  operator: App | null;
  /** The payment gateway's name: "simulator" or "stripe". */
  gateway: string;
  /** The license public key (base64url of the raw 32 bytes), for the desktop app. */
  licensePublicKey: string;
  /** Where the signing key came from. */
  licenseKeySource: 'LICENSE_SIGNING_KEY' | 'storage';
  /**
   * The update files' online key (hex public key and keyid), where it came from, and each channel's newest
   * root at start; null where nothing signs them (the Worker serves the files its server stored).
   */
  updates: { onlineKey: string; onlineKeyid: string; source: OnlineKey['source']; roots: ChannelRoot[] } | null;
  /**
   * Turns readiness to 503 at once, stops accepting connections, lets requests in flight finish, then
   * closes the metrics listener and storage.
   */
  stop(): Promise<void>;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function openVersion(config: ServerConfig, clock: Clock, logger: Logger): Promise<VersionSource> {
  try {
    return await openVersionFile(config.versionFile, { clock, logger });
  } catch (error) {
    throw new ConfigError(`versionFile ${config.versionFile}: ${(error as Error).message}`);
  }
}

/**
 * Starts the mail loop: the resend step always, and sending when SMTP_URL is set (the SMTP client is
 * loaded only then); without it says once that mail is off: mails are still written to the outbox and
 * shown on the order pages.
 */
async function openMailDelivery(config: ServerConfig, storage: Storage, app: App, clock: Clock, logger: Logger): Promise<MailDelivery> {
  const steps = { resendStep: () => app.processResendRequests(), shippedStep: () => app.processShippedRequests(), listUnsubscribe: app.listUnsubscribe };
  if (config.mail.smtpUrl === null) {
    logger.info('mail is off: SMTP_URL is not set; mails are kept in the outbox and shown on the order pages, not sent');
    return startMailDelivery({ storage, sender: null, from: config.mail.from, ...steps, clock, logger });
  }
  const { createSmtpSender } = await import('../adapters/smtp/index.ts');
  logger.info('mail is on', { from: config.mail.from, smtpHost: new URL(config.mail.smtpUrl).host });
  return startMailDelivery({ storage, sender: createSmtpSender(config.mail.smtpUrl), from: config.mail.from, ...steps, clock, logger });
}

/**
 * What to close, in reverse order, when a start fails after some of it opened: each step that opens
 * something registers its closer as it succeeds.
 */
function cleanUpStack() {
  const closers: (() => Promise<unknown>)[] = [];
  return {
    push: (close: () => Promise<unknown>) => void closers.push(close),
    async closeAll() {
      // A closer that fails must not keep the others (PGlite's data directory lock) open.
      for (const close of closers.reverse()) await close().catch(() => undefined);
    },
  };
}

/**
 * Starts the standalone server on one runtime.
 *
 * @param config The loaded configuration.
 * @param logger Where log lines go.
 * @param clock Where time comes from (tests inject one).
 * @param bind The runtime's way to bind a socket to the app.
 * @returns The serving server.
 * @throws ConfigError when a setting is refused (before anything is bound).
 */
export async function startStandalone(config: ServerConfig, logger: Logger, clock: Clock, bind: Bind): Promise<Standalone> {
  const opened = cleanUpStack();
  let ready: (app: App) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const whenApp = new Promise<App>((resolve, reject) => ((ready = resolve), (failed = reject)));
  // A request that waits for an app that never comes fails with it; nobody else awaits this promise.
  whenApp.catch(() => undefined);
  try {
    const storage = await openStorage(config.storage, { logger, clock, eventRetentionDays: config.eventRetentionDays });
    opened.push(() => storage.close());
    const signing = await openSigningKey(config.licenseSigningKey, storage, config.licenseKeyFormat);
    const online = await openOnlineKey(config.updatesOnlineKey, storage);
    const version = await openVersion(config, clock, logger);
    const { payment, content } = config;
    const thanksPage = payment.gateway === 'simulator' && !ownSiteConfigured(payment.returnTo, config.isExample);
    const makeGateway = await openGateway({ payment, offer: content.offer, storage, clock, logger, thanksPage });
    const offer = await openOffer({ payment, offer: content.offer, clock, logger });
    const observability = createObservability(config.observability);
    // Bound before the public port: a metrics port in use stops the start before any traffic is taken.
    const metrics: MetricsListener | null = observability.renderMetrics && config.observability.metrics
      ? await listenMetrics(observability.renderMetrics, config.observability.metrics.port, config.observability.metrics.host)
      : null;
    if (metrics) opened.push(() => metrics.close());
    const bound = await bind(whenApp);
    opened.push(() => bound.close());
    const publicBaseUrl = config.publicBaseUrl ?? `http://localhost:${bound.port}`;
    // This server's own listeners are never a webhook's receiver, whatever WEBHOOK_ALLOW_NETWORKS allows.
    const ownPorts = new Set(
      [bound.port, config.port, config.operator?.port, config.observability.metrics?.port].filter((p): p is number => p !== undefined && p > 0),
    );
    const webhookAddresses = webhookAddressPolicy(config.webhookAllowNetworks, ownPorts);
    const gateway = makeGateway(publicBaseUrl);
    const app = await createApp({
      ...appOptionsOf(config),
      storage,
      version,
      licenses: signing.issuer,
      gateway,
      offer,
      clock,
      logger,
      publicBaseUrl,
      webhookAddresses,
      mail: { enabled: config.mail.smtpUrl !== null, texts: config.mail.texts, requestersTold: config.mail.requestersTold },
      mailHtml,
      updates: { ...updateOptionsOf(config), signer: online.signer, ...(config.updatesPurge ? { purge: openCachePurge(config.updatesPurge) } : {}) },
      ...(config.voterSecret ? { voterSecret: config.voterSecret } : {}),
      ...(observability.observer ? { observer: observability.observer } : {}),
      ...(config.operator ? { operatorTokens: config.operator.tokens, operatorProxies: config.trustedProxies, operatorRoutes: operatorPages } : {}),
    });
    ready(app);
    observability.watchUsage(app.usage);
    const usageWriter = writeUsageOnTimer(() => app.flush());
    opened.push(() => usageWriter.stop());
    const events = startEventDelivery(storage, clock, logger, 1000, webhookAddresses);
    opened.push(() => events.stop());
    // A quiet instance reads the releases too, so a ramp step is announced within a second of it.
    const releaseReads = startBackgroundLoop(() => app.refreshReleases(), 'could not read the releases', clock, logger, 1000);
    opened.push(() => releaseReads.stop());
    const mail = await openMailDelivery(config, storage, app, clock, logger);
    opened.push(() => mail.stop());

    let stopping: Promise<void> | null = null;
    const finish = async () => {
      await bound.close();
      await releaseReads.stop();
      await events.stop();
      await mail.stop();
      await usageWriter.stop();
      await metrics?.close();
      observability.flush();
      await storage.close();
    };
    return {
      url: bound.url,
      metricsUrl: metrics?.url ?? null,
      publicBaseUrl,
      operator: app.operator,
      gateway: gateway.name,
      licensePublicKey: signing.publicKey,
      licenseKeySource: signing.source,
      updates: { onlineKey: online.signer.key.keyval.public, onlineKeyid: online.signer.keyid, source: online.source, roots: app.channelRoots() },
      // Readiness turns 503 at once, so balancers drain this instance; it keeps serving for DRAIN_SECONDS
      // (0 by default) while they notice. Then at least one turn of the event loop: a request whose bytes
      // arrived with the signal is read, and so in flight, before the server stops (Deno.serve and
      // Bun.serve close connections whose request they have not begun to handle).
      stop: () => {
        app.drain();
        return (stopping ??= wait(config.observability.drainMs).then(finish));
      },
    };
  } catch (error) {
    // Requests waiting for the app fail with it; then the port, the metrics listener and the storage
    // (PGlite's data directory lock) are released, in that order.
    failed(error);
    await opened.closeAll();
    throw error;
  }
}

/**
 * A fetch-style handler over the app that is being built: requests that arrive between the bind and the
 * build wait for it; later ones are handed straight to the runtime binding.
 *
 * @param whenApp The app, once built.
 * @param bindApp Makes the runtime binding's handler (request, connection info) for the app.
 * @returns The handler to give the runtime's server.
 */
export function handlerWhenReady<Info, R>(
  whenApp: Promise<App>,
  bindApp: (app: App) => (request: Request, info: Info) => R | Promise<R>,
): (request: Request, info: Info) => R | Promise<R> {
  let handle: ((request: Request, info: Info) => R | Promise<R>) | undefined;
  const ready = whenApp.then((app) => (handle = bindApp(app)));
  // Only waiting requests use this promise; a failed build is reported by startStandalone.
  ready.catch(() => undefined);
  // Named parameters, not a rest parameter: Deno.serve gives no connection info to a handler whose
  // length is 0.
  return (request, info) => (handle ? handle(request, info) : ready.then((h) => h(request, info)));
}
