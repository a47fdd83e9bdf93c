/**
 * Wires the standalone server: storage, gateway, version file, app and node:http, with timeouts, a
 * header-size limit and a graceful stop.
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeListener } from '../adapters/node/index.ts';
import { openVersionFile } from '../adapters/node/version-file.ts';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { createApp, type App } from '../core/app.ts';
import { createLicenseIssuer } from '../core/license.ts';
import type { Clock, Logger, Storage } from '../core/ports.ts';
import { ConfigError, type ServerConfig } from './config.ts';

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
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes storage. */
  stop(): Promise<void>;
}

/** The app of the standalone server and the storage it must close on stop. */
export interface ServerApp {
  app: App;
  storage: Storage;
}

/**
 * Wires the app of the standalone server: storage, gateway, licenses, version file. Shared by the node:http
 * server below and the Deno and Bun entry points.
 *
 * @param config The loaded configuration.
 * @param logger Where log lines go.
 * @param clock Where time comes from (tests inject one).
 */
export async function createServerApp(config: ServerConfig, logger: Logger, clock: Clock): Promise<ServerApp> {
  const storage = createMemoryStorage({ clock });
  const gateway = createSimulatorGateway({ storage, publicBaseUrl: config.publicBaseUrl, clock });
  let licenses;
  try {
    licenses = config.licenseSigningKey ? await createLicenseIssuer(config.licenseSigningKey) : undefined;
  } catch {
    throw new ConfigError('LICENSE_SIGNING_KEY is not a base64 PKCS#8 Ed25519 private key');
  }
  let version;
  try {
    version = await openVersionFile(config.versionFile, { clock, logger });
  } catch (error) {
    throw new ConfigError(`versionFile ${config.versionFile}: ${(error as Error).message}`);
  }
  const app = await createApp({
    content: config.content,
    version,
    storage,
    gateway,
    ...(licenses ? { licenses } : {}),
    clock,
    logger,
    corsOrigins: config.corsOrigins,
    aliasDeprecation: config.aliasDeprecation,
    bodyLimit: config.bodyLimit,
    checkoutTtlMs: config.checkoutTtlMs,
    publicBaseUrl: config.publicBaseUrl,
    ...(config.voterSecret ? { voterSecret: config.voterSecret } : {}),
  });
  return { app, storage };
}

/**
 * Starts the server.
 *
 * @param config The loaded configuration.
 * @param logger Where log lines go.
 * @param clock Where time comes from (tests inject one).
 */
export async function startServer(config: ServerConfig, logger: Logger, clock: Clock = { now: () => Date.now() }): Promise<RunningServer> {
  const { app, storage } = await createServerApp(config, logger, clock);
  const server = createServer(
    { ...HTTP_LIMITS },
    createNodeListener(app, { trustedProxies: config.trustedProxies, onError: (error) => logger.error('write failed', { error: String(error) }) }),
  );
  server.keepAliveTimeout = HTTP_LIMITS.keepAliveTimeout;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= new Promise<void>((resolve) => {
      const force = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    }).then(() => storage.close?.()));

  return { server, url: `http://${host}:${address.port}`, stop };
}
