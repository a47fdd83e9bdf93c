/**
 * `npm run start:workers`: the Cloudflare Worker served locally under workerd (from npm), built from the
 * same config file, version file and environment as `npm start`, behind a local front that sets
 * CF-Connecting-IP from the connecting socket as Cloudflare's edge does. Before the Worker starts, this
 * program does what runs from the operator's machine for a deployment: it migrates the database (the
 * Worker only checks the schema) and, for Stripe, checks the key and prices.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { parseVersionText } from '../adapters/node/version-file.ts';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createPostgresClient } from '../adapters/postgres/index.ts';
import { migrate } from '../adapters/sql/migrate.ts';
import { ConfigError, loadConfig, type ServerConfig } from '../server/config.ts';
import { openGateway } from '../server/gateway.ts';
import { consoleLogger as logger } from '../server/logger.ts';
import { describeStorage } from '../server/open-storage.ts';
import type { StorageSettings } from '../server/storage-config.ts';
import { startEdgeFront, type EdgeFront } from './edge-front.ts';
import { startWorkerd, type RunningWorkerd } from './workerd.ts';

/** The Worker's storage: PostgreSQL with DATABASE_URL, else memory (workerd cannot run PGlite). */
function workerStorage(env: NodeJS.ProcessEnv, config: ServerConfig): Exclude<StorageSettings, { kind: 'pglite' }> {
  if (config.storage.kind === 'postgres') return config.storage;
  if (env['STORAGE'] === 'pglite') throw new ConfigError('STORAGE=pglite is not available under workerd: set DATABASE_URL, or STORAGE=memory');
  return { kind: 'memory' };
}

function readVersion(file: string): string {
  try {
    return parseVersionText(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`versionFile ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

async function migrateDatabase(storage: Extract<StorageSettings, { kind: 'postgres' }>): Promise<void> {
  // Another instance's migration may hold the database a while: waiting is fine here, unlike in a request.
  const client = createPostgresClient({ url: storage.url, schema: storage.schema, maxConnections: 1, connectTimeoutMs: 10_000 });
  try {
    const report = await migrate(client);
    if (report.applied.length > 0) logger.info('database migrated', { ...report });
  } finally {
    await client.close();
  }
}

/** The Worker's variables and secrets, from the configuration and the environment. */
function bindings(env: NodeJS.ProcessEnv, version: string, publicBaseUrl: string, storage: ReturnType<typeof workerStorage>): Record<string, string> {
  const passed = ['PAYMENT_GATEWAY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE', 'LICENSE_SIGNING_KEY', 'VOTER_SECRET'];
  const vars: Record<string, string> = { PRODUCT_VERSION: version, PUBLIC_BASE_URL: publicBaseUrl };
  for (const name of passed) if (env[name]) vars[name] = env[name];
  if (storage.kind === 'postgres') Object.assign(vars, { DATABASE_URL: storage.url, DATABASE_SCHEMA: storage.schema });
  return vars;
}

async function start(): Promise<{ front: EdgeFront; worker: Promise<RunningWorkerd> }> {
  const env = process.env;
  const config = loadConfig(env, process.cwd());
  const storage = workerStorage(env, config);
  const version = readVersion(config.versionFile);
  if (config.trustedProxies) {
    logger.warn('TRUSTED_PROXIES has no meaning under workerd: the client is the connecting socket, which the local front passes as CF-Connecting-IP (on Cloudflare, its edge sets it)');
  }
  if (storage.kind === 'postgres') await migrateDatabase(storage);
  // The Worker checks nothing with Stripe at start: this run does it, as `npm start` would.
  await openGateway({ payment: config.payment, offer: config.content.offer, storage: createMemoryStorage(), clock: { now: () => Date.now() }, logger });

  let upstreamReady: (target: { port: number }) => void = () => undefined;
  let upstreamFailed: (error: unknown) => void = () => undefined;
  const upstream = new Promise<{ port: number }>((resolve, reject) => ((upstreamReady = resolve), (upstreamFailed = reject)));
  // The front listens first: with PORT=0 the public address names the port it was given.
  const front = await startEdgeFront(upstream, config.port, config.host, (error) =>
    logger.error('the local front could not reach workerd', { error: String(error) }),
  );
  const publicBaseUrl = config.publicBaseUrl ?? `http://localhost:${front.port}`;
  const worker = startWorkerd({ configFile: config.file }, bindings(env, version, publicBaseUrl, storage), (chunk, stream) =>
    (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
  );
  worker.then(upstreamReady, upstreamFailed);
  await worker.catch(async (error: unknown) => {
    await front.close();
    throw error;
  });

  if (config.isExample) logger.warn('serving the EXAMPLE content shipped with the server; set CONFIG_FILE or create ./config.json');
  if (config.payment.gateway === 'simulator') logger.warn('payments go to the local PAYMENT SIMULATOR: no money is taken (see docs/configuration.md)');
  if (storage.kind === 'memory') {
    logger.warn('no DATABASE_URL: the Worker uses memory storage, one per isolate; votes, feedback and licenses are lost on restart');
  }
  logger.info('listening', {
    url: front.url,
    runtime: 'workerd',
    publicBaseUrl,
    config: config.file,
    version,
    ...describeStorage(storage),
  });
  return { front, worker };
}

let running: Awaited<ReturnType<typeof start>> | undefined;
let stopping = false;
const stop = async (signal: string): Promise<never> => {
  logger.info('stopping', { signal });
  if (running) {
    await running.front.close();
    await (await running.worker).stop();
  }
  logger.info('stopped');
  process.exit(0);
};
// In place before anything starts, so that a stop during the start still stops workerd.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    stopping = true;
    if (running) void stop(signal);
  });
}
try {
  running = await start();
  if (stopping) await stop('SIGTERM');
} catch (error) {
  if (error instanceof ConfigError) {
    logger.error(`configuration error: ${error.message}`);
    process.exit(78);
  }
  logger.error('could not start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
