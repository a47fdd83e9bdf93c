/**
 * The standalone server whatever the runtime: storage (memory, PGlite or Postgres, chosen by
 * storage-config.ts), signing key, version file, gateway and offer are opened and checked first, so a
 * configuration error stops the start before any port is bound; the runtime binds its socket next, so
 * that with PORT=0 the public address names the port actually bound; the app is built last, and
 * requests that arrive before it is ready wait for it.
 *
 * @module
 */
import { nodeHmacSha256 } from '../adapters/node/hmac.ts';
import { openVersionFile } from '../adapters/node/version-file.ts';
import { createApp, type App } from '../core/app.ts';
import type { Clock, Logger, VersionSource } from '../core/ports.ts';
import { ConfigError, type ServerConfig } from './config.ts';
import { openGateway } from './gateway.ts';
import { openSigningKey } from './license-key.ts';
import { openOffer } from './offer.ts';
import { openStorage, type OpenedStorage } from './open-storage.ts';

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

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function openVersion(config: ServerConfig, clock: Clock, logger: Logger): Promise<VersionSource> {
  try {
    return await openVersionFile(config.versionFile, { clock, logger });
  } catch (error) {
    throw new ConfigError(`versionFile ${config.versionFile}: ${(error as Error).message}`);
  }
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
  const storage = await openStorage(config.storage, { logger, clock });
  try {
    return await serve(config, logger, clock, bind, storage);
  } catch (error) {
    // A refused setting after the storage opened: release it (PGlite's data directory lock) before stopping.
    await storage.close().catch(() => undefined);
    throw error;
  }
}

async function serve(config: ServerConfig, logger: Logger, clock: Clock, bind: Bind, storage: OpenedStorage): Promise<Standalone> {
  const signing = await openSigningKey(config.licenseSigningKey, storage);
  const version = await openVersion(config, clock, logger);
  const { payment, content } = config;
  const makeGateway = await openGateway({ payment, offer: content.offer, storage, clock, logger });
  const offer = await openOffer({ payment, offer: content.offer, clock, logger });

  let ready: (app: App) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const whenApp = new Promise<App>((resolve, reject) => ((ready = resolve), (failed = reject)));
  // A request that waits for an app that never comes fails with it; nobody else awaits this promise.
  whenApp.catch(() => undefined);
  const bound = await bind(whenApp);
  const publicBaseUrl = config.publicBaseUrl ?? `http://localhost:${bound.port}`;
  const gateway = makeGateway(publicBaseUrl);
  try {
    ready(
      await createApp({
        content,
        storage,
        version,
        licenses: signing.issuer,
        gateway,
        offer,
        clock,
        logger,
        corsOrigins: config.corsOrigins,
        aliasDeprecation: config.aliasDeprecation,
        bodyLimit: config.bodyLimit,
        checkoutTtlMs: config.checkoutTtlMs,
        publicBaseUrl,
        hmacSha256: nodeHmacSha256,
        ...(config.docsUrl ? { docsUrl: config.docsUrl } : {}),
        ...(config.voterSecret ? { voterSecret: config.voterSecret } : {}),
      }),
    );
  } catch (error) {
    failed(error);
    await bound.close();
    throw error;
  }

  let stopping: Promise<void> | null = null;
  return {
    url: bound.url,
    publicBaseUrl,
    gateway: gateway.name,
    licensePublicKey: signing.publicKey,
    licenseKeySource: signing.source,
    // One turn of the event loop first: a request whose bytes arrived with the signal is read, and so in
    // flight, before the server stops (Deno.serve and Bun.serve close connections whose request they
    // have not begun to handle).
    stop: () => (stopping ??= nextTurn().then(() => bound.close()).then(() => storage.close())),
  };
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
