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
import { createApp } from '../core/app.ts';
import type { Clock, Logger } from '../core/ports.ts';
import { ConfigError, type ServerConfig } from './config.ts';
import { openGateway } from './gateway.ts';
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
  url: string;
  /** The payment gateway's name: "simulator" or "stripe". */
  gateway: string;
  /** The license public key (base64url of the raw 32 bytes), for the desktop app. */
  licensePublicKey: string;
  /** Where the signing key came from. */
  licenseKeySource: 'LICENSE_SIGNING_KEY' | 'storage';
  /** Stops accepting connections, lets requests in flight finish, then closes storage. */
  stop(): Promise<void>;
}

/**
 * Starts the server.
 *
 * @param config The loaded configuration.
 * @param logger Where log lines go.
 * @param clock Where time comes from (tests inject one).
 */
export async function startServer(config: ServerConfig, logger: Logger, clock: Clock = { now: () => Date.now() }): Promise<RunningServer> {
  const storage = createMemoryStorage({ clock });
  const signing = await openSigningKey(config.licenseSigningKey, storage);
  const { payment, publicBaseUrl, content } = config;
  const gateway = await openGateway({ payment, publicBaseUrl, offer: content.offer, storage, clock, logger });
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
    licenses: signing.issuer,
    clock,
    logger,
    corsOrigins: config.corsOrigins,
    aliasDeprecation: config.aliasDeprecation,
    bodyLimit: config.bodyLimit,
    checkoutTtlMs: config.checkoutTtlMs,
    publicBaseUrl: config.publicBaseUrl,
    ...(config.voterSecret ? { voterSecret: config.voterSecret } : {}),
  });

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

  return {
    server,
    url: `http://${host}:${address.port}`,
    gateway: gateway.name,
    licensePublicKey: signing.publicKey,
    licenseKeySource: signing.source,
    stop,
  };
}
