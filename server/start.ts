/**
 * Wires the standalone server: storage, gateway, version file, app and node:http, with timeouts, a
 * header-size limit and a graceful stop.
 *
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createClientErrorListener } from '../adapters/node/client-error.ts';
import { createNodeListener, type NodeListener } from '../adapters/node/index.ts';
import { openVersionFile } from '../adapters/node/version-file.ts';
import { createApp, type App } from '../core/app.ts';
import type { Clock, Logger, LicenseIssuer, OfferSource, PaymentGateway, Storage, VersionSource } from '../core/ports.ts';
import { ConfigError, type ServerConfig } from './config.ts';
import { openGateway } from './gateway.ts';
import { openOffer } from './offer.ts';
import { openSigningKey } from './license-key.ts';

/** node:http limits: slow or oversized clients are cut off instead of holding sockets. */
export const HTTP_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  maxHeaderSize: 16 * 1024,
};

/** How long a stop waits for requests in flight before closing what is left. */
const STOP_GRACE_MS = 10_000;

export interface RunningServer {
  server: Server;
  /** Where the socket is bound, e.g. http://127.0.0.1:8080. */
  url: string;
  /** The public address used in links (checkout pages, discovery documents). */
  publicBaseUrl: string;
  /** The payment gateway's name: "simulator" or "stripe". */
  gateway: string;
  /** The license public key (base64url of the raw 32 bytes), for the desktop app. */
  licensePublicKey: string;
  /** Where the signing key came from. */
  licenseKeySource: 'LICENSE_SIGNING_KEY' | 'storage';
  /** Stops accepting connections, lets requests in flight finish, then closes storage. */
  stop(): Promise<void>;
}

async function openVersion(config: ServerConfig, clock: Clock, logger: Logger): Promise<VersionSource> {
  try {
    return await openVersionFile(config.versionFile, { clock, logger });
  } catch (error) {
    throw new ConfigError(`versionFile ${config.versionFile}: ${(error as Error).message}`);
  }
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** What the app is built from, opened and checked before the socket is bound. */
interface Parts {
  storage: Storage;
  version: VersionSource;
  licenses: LicenseIssuer;
  gateway: PaymentGateway;
  offer: OfferSource;
}

function buildApp(config: ServerConfig, parts: Parts, publicBaseUrl: string, clock: Clock, logger: Logger): Promise<App> {
  return createApp({
    content: config.content,
    ...parts,
    clock,
    logger,
    corsOrigins: config.corsOrigins,
    aliasDeprecation: config.aliasDeprecation,
    bodyLimit: config.bodyLimit,
    checkoutTtlMs: config.checkoutTtlMs,
    publicBaseUrl,
    ...(config.docsUrl ? { docsUrl: config.docsUrl } : {}),
    ...(config.voterSecret ? { voterSecret: config.voterSecret } : {}),
  });
}

/**
 * Starts the server. Storage, the signing key, the version file and the gateway's setup (Stripe's key
 * and prices) are checked first, so that a configuration error stops the start before any port is
 * bound. The socket is bound next, so that with PORT=0 the public address can name the port actually
 * bound; requests that arrive before the app is ready wait for it.
 *
 * @param config The loaded configuration.
 * @param logger Where log lines go.
 * @param clock Where time comes from (tests inject one).
 */
export async function startServer(config: ServerConfig, logger: Logger, clock: Clock = { now: () => Date.now() }): Promise<RunningServer> {
  const storage = createMemoryStorage({ clock });
  const signing = await openSigningKey(config.licenseSigningKey, storage);
  const version = await openVersion(config, clock, logger);
  const { payment, content } = config;
  const makeGateway = await openGateway({ payment, offer: content.offer, storage, clock, logger });
  const offer = await openOffer({ payment, offer: content.offer, clock, logger });
  let listener: NodeListener | undefined;
  let ready: (l: NodeListener) => void = () => {};
  const whenReady = new Promise<NodeListener>((resolve) => (ready = resolve));
  const server = createServer({ ...HTTP_LIMITS }, (request: IncomingMessage, response: ServerResponse) => {
    if (listener) listener(request, response);
    else void whenReady.then((l) => l(request, response));
  });
  server.keepAliveTimeout = HTTP_LIMITS.keepAliveTimeout;
  const address = await listen(server, config.port, config.host);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const publicBaseUrl = config.publicBaseUrl ?? `http://localhost:${address.port}`;

  const gateway = makeGateway(publicBaseUrl);
  const app = await buildApp(config, { storage, version, licenses: signing.issuer, gateway, offer }, publicBaseUrl, clock, logger);
  listener = createNodeListener(app, {
    trustedProxies: config.trustedProxies,
    onError: (error) => logger.error('could not answer a request', { error: String(error) }),
  });
  ready(listener);
  server.on('clientError', createClientErrorListener(app));

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
      // Keep-alive connections turn idle as their last answer goes out: close them as they do.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      server.close(() => {
        clearTimeout(force);
        clearInterval(sweep);
        resolve();
      });
      server.closeIdleConnections();
    }).then(() => storage.close?.()));

  return {
    server,
    url: `http://${host}:${address.port}`,
    publicBaseUrl,
    gateway: gateway.name,
    licensePublicKey: signing.publicKey,
    licenseKeySource: signing.source,
    stop,
  };
}
