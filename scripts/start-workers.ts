/**
 * `npm run start:workers`: the Cloudflare Worker served locally under workerd (from npm), built from the
 * same config file, version file and environment as `npm start`, behind a local front that sets
 * CF-Connecting-IP from the connecting socket as Cloudflare's edge does. It runs as the standalone
 * program does (server/program.ts: signals, exit codes, the startup log). Before the Worker starts, it
 * does what runs from the operator's machine for a deployment: it migrates the database (the Worker only
 * checks the schema) and, for Stripe, checks the key and prices.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { parseVersionText } from '../adapters/node/version-file.ts';
import { createPostgresClient } from '../adapters/postgres/index.ts';
import { openSqlStorage, type SqlStorage } from '../adapters/sql/storage.ts';
import type { Logger } from '../core/ports/ports.ts';
import { ConfigError, type ServerConfig } from '../server/config.ts';
import { openGateway } from '../server/gateway.ts';
import { openSigningKey, SIGNING_KEY_SECRET } from '../server/license-key.ts';
import { runProgram } from '../server/program.ts';
import type { Standalone } from '../server/standalone.ts';
import { startEdgeFront } from './edge-front.ts';
import { startWorkerd } from './workerd.ts';

function readVersion(file: string): string {
  try {
    return parseVersionText(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`versionFile ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Migrates the database and settles the signing key: LICENSE_SIGNING_KEY, else the one kept in the
 * database (created on first start, as by the standalone server); on memory storage one made for this
 * run and handed to the Worker, so that the public key announced is the one the Worker signs with.
 */
async function prepareStorage(config: ServerConfig, logger: Logger) {
  const settings = config.storage;
  let storage: SqlStorage | null = null;
  if (settings.kind === 'postgres') {
    // Another instance's migration may hold the database a while: waiting is fine here, unlike in a request.
    const client = createPostgresClient({ url: settings.url, schema: settings.schema, maxConnections: 1, connectTimeoutMs: 10_000 });
    const opened = await openSqlStorage(client, {});
    if (opened.migration.applied.length > 0) logger.info('database migrated', { ...opened.migration });
    storage = opened.storage;
  }
  try {
    const keys = storage ?? createMemoryStorage();
    const signing = await openSigningKey(config.licenseSigningKey, keys);
    const generated = storage || config.licenseSigningKey ? undefined : await keys.secret(SIGNING_KEY_SECRET, () => '');
    return { signing, generated };
  } finally {
    await storage?.close();
  }
}

/** The Worker's variables and secrets, from the configuration and the environment. */
function bindings(config: ServerConfig, version: string, publicBaseUrl: string, generatedKey: string | undefined): Record<string, string> {
  const env = process.env;
  const vars: Record<string, string> = { PRODUCT_VERSION: version, PUBLIC_BASE_URL: publicBaseUrl };
  for (const name of ['PAYMENT_GATEWAY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE', 'LICENSE_SIGNING_KEY', 'VOTER_SECRET']) {
    if (env[name]) vars[name] = env[name];
  }
  if (generatedKey) vars['LICENSE_SIGNING_KEY'] = generatedKey;
  if (config.storage.kind === 'postgres') Object.assign(vars, { DATABASE_URL: config.storage.url, DATABASE_SCHEMA: config.storage.schema });
  return vars;
}

async function startWorkers(config: ServerConfig, logger: Logger): Promise<Standalone> {
  // The startup log reads the same object: it then names the storage and proxies the Worker really has.
  if (config.storage.kind === 'pglite') {
    if (process.env['STORAGE'] === 'pglite') throw new ConfigError('STORAGE=pglite is not available under workerd: set DATABASE_URL, or STORAGE=memory');
    logger.warn('no DATABASE_URL: the Worker uses memory storage, one per isolate; votes, feedback and licenses are lost on restart');
    config.storage = { kind: 'memory' };
  }
  if (config.trustedProxies) {
    logger.warn(
      'TRUSTED_PROXIES has no meaning under workerd: the client is the connecting socket, which the local front passes as CF-Connecting-IP (on Cloudflare, its edge sets it)',
    );
    config.trustedProxies = null;
  }
  const version = readVersion(config.versionFile);
  const { signing, generated } = await prepareStorage(config, logger);
  // The Worker checks nothing with Stripe at start: this run does it, as `npm start` would.
  await openGateway({ payment: config.payment, offer: config.content.offer, storage: createMemoryStorage(), clock: { now: () => Date.now() }, logger });

  let found: (target: { port: number }) => void = () => undefined;
  let failed: (error: unknown) => void = () => undefined;
  const upstream = new Promise<{ port: number }>((resolve, reject) => ((found = resolve), (failed = reject)));
  // The front listens first: with PORT=0 the public address names the port it was given.
  const front = await startEdgeFront(
    upstream,
    config.port,
    config.host,
    (error) => logger.error('the local front could not reach workerd', { error: String(error) }),
    config.bodyLimit,
  );
  const publicBaseUrl = config.publicBaseUrl ?? `http://localhost:${front.port}`;
  const worker = await startWorkerd(
    { configFile: config.file },
    bindings(config, version, publicBaseUrl, generated),
    (chunk, stream) => (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
  ).catch(async (error: unknown) => {
    failed(error);
    await front.close();
    throw error;
  });
  found(worker);
  let stopping: Promise<void> | null = null;
  return {
    url: front.url,
    // The Worker serves no metrics listener: Cloudflare's own analytics are the Worker's metrics.
    metricsUrl: null,
    publicBaseUrl,
    // No operator listener on the Worker (docs/operating.md): its releases are changed through a server's.
    operator: null,
    gateway: config.payment.gateway,
    licensePublicKey: signing.publicKey,
    licenseKeySource: signing.source,
    // The Worker signs no update file: it serves those a server on the same database stored.
    updates: null,
    stop: () => (stopping ??= front.close().then(async () => void (await worker.stop()))),
  };
}

await runProgram('workerd', startWorkers);
