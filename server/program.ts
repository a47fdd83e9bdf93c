/**
 * The standalone program, whatever the runtime: handle SIGTERM/SIGINT, load the configuration, start
 * the server, then say what is served, the 'listening' line last. Each runtime's entry point passes its
 * own way to start (node:http, Deno.serve, Bun.serve).
 *
 * @module
 */
import type { Logger } from '../core/ports/ports.ts';
import { ConfigError, loadConfig, type ServerConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { stopWithNpmParent } from './npm-parent.ts';
import { describeStorage } from './open-storage.ts';
import { describePurge } from './purge-config.ts';
import { OTHER_PUBLIC_KEY, SCENARIO_PUBLIC_KEY } from './scenarios/test-keys.ts';
import type { Standalone } from './standalone.ts';

/** The public halves of the test keys the docs publish (their private halves are public too). */
const PUBLISHED_TEST_KEYS: ReadonlySet<string> = new Set([SCENARIO_PUBLIC_KEY, OTHER_PUBLIC_KEY]);

/** Starts the standalone server for a configuration on one runtime. */
export type Start = (config: ServerConfig, logger: Logger) => Promise<Standalone>;

function onSignals(logger: Logger, running: () => Standalone | undefined): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping: finishing requests in flight', { signal });
    (running()?.stop() ?? Promise.resolve()).then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error('stop failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop(signal));
  // Under npx or npm start, stopping npm stops the server too (see npm-parent.ts).
  stopWithNpmParent(() => stop('npm exited'));
}

/**
 * Says at start what is served and what the operator should know (the warnings), the 'listening' line last.
 *
 * @param running What started: only its addresses and license key are read.
 */
export function announce(
  runtime: string,
  config: ServerConfig,
  running: Pick<Standalone, 'url' | 'publicBaseUrl' | 'metricsUrl' | 'licensePublicKey' | 'licenseKeySource'> & Partial<Pick<Standalone, 'updates'>>,
  logger: Logger,
  now: number = Date.now(),
): void {
  if (config.isExample) {
    logger.warn('serving the EXAMPLE content shipped with the server; set CONFIG_FILE or create ./config.json');
  }
  const { payment } = config;
  if (payment.gateway === 'simulator') {
    logger.warn(
      'payments go to the local PAYMENT SIMULATOR: no money is taken (see https://github.com/converter-site/converter-site-api/blob/main/docs/configuration.md#payment-simulator)',
    );
  } else {
    logger.info('payments go to Stripe Checkout', { mode: payment.testMode ? 'test' : 'live', apiBase: payment.apiBase ?? 'https://api.stripe.com' });
  }
  logger.info('license keys are signed with Ed25519; give the desktop app this public key', {
    publicKey: running.licensePublicKey,
    source: running.licenseKeySource,
  });
  if (config.licenseKeyFormat === 'v1') {
    logger.warn(
      'license keys are issued in format version 1 (LICENSE_KEY_FORMAT=v1): set it to v2 once every supported desktop app verifies version-2 keys (docs/licensing.md)',
    );
  }
  if (payment.gateway !== 'simulator' && !payment.testMode && PUBLISHED_TEST_KEYS.has(running.licensePublicKey)) {
    logger.warn(
      'license keys and update answers are signed with a PUBLISHED TEST KEY (docs/conformance.md) while payments are live: anyone can sign keys this app accepts; set LICENSE_SIGNING_KEY to a key of your own (converter-site-api license generate-key)',
      { publicKey: running.licensePublicKey },
    );
  }
  if (config.mail.smtpUrl !== null && config.publicBaseUrl === null) {
    logger.warn(
      "mail is on but publicBaseUrl is not set: the links in mails (unsubscribe, the checkout thanks page) name this instance's own address; set publicBaseUrl in the config file to the address buyers reach",
      { linksTo: running.publicBaseUrl },
    );
  }
  if (running.updates) {
    announceUpdateFiles(running.updates, logger, now);
    const purge = describePurge(config.updatesPurge);
    logger.info(
      config.updatesPurge === null
        ? 'update files: no cache purge; caches keep the old timestamp until its max-age (docs/operating.md, "Purging the caches")'
        : `update files: caches are purged through ${config.updatesPurge.cdn} once new files are stored`,
      { ...purge, timestampMaxAge: config.updates.timestampMaxAgeSeconds },
    );
  }
  const memory = config.storage.kind === 'memory';
  if (memory) logger.warn('STORAGE=memory: votes, feedback and licenses are lost on restart');
  if (memory && running.licenseKeySource === 'storage') {
    logger.warn(
      'the license signing key was generated for this run only: set LICENSE_SIGNING_KEY (converter-site-api license generate-key; in a git checkout, npm run license -- generate-key) so keys keep verifying after a restart',
    );
  }
  logger.info('listening', {
    url: running.url,
    runtime,
    publicBaseUrl: running.publicBaseUrl,
    config: config.file,
    ...describeStorage(config.storage),
    trustedProxies: config.trustedProxies?.source ?? [],
    metrics: running.metricsUrl,
    operator: (running as { operatorUrl?: string | null }).operatorUrl ?? null,
    logLevel: config.observability.logLevel,
    logRequests: config.observability.logRequests,
  });
}

/** A root this close to its expiry is named at every start: an app refuses an expired root's files. */
const ROOT_WARNING_MS = 30 * 86_400_000;

/** What the start log says of the update files: the online key a root must name, and each channel's root. */
function announceUpdateFiles(updates: NonNullable<Standalone['updates']>, logger: Logger, now: number): void {
  logger.info('update files are signed with this online key once a root names it (docs/operating.md, "Setting up the update files")', {
    onlineKey: updates.onlineKey,
    keyid: updates.onlineKeyid,
    source: updates.source,
  });
  for (const { channel, root } of updates.roots) {
    if (root === null) {
      logger.info(
        `update files: channel ${channel} has no root yet, so /updates/${channel}/ answers 404 (converter-site-api updates sign-root, then publish-root)`,
      );
    } else if (root.expiresAt - now <= ROOT_WARNING_MS) {
      const days = Math.max(0, Math.floor((root.expiresAt - now) / 86_400_000));
      logger.warn(
        `update files: root ${root.version} of channel ${channel} expires in ${days} days (${new Date(root.expiresAt).toISOString()}): sign and publish root ${
          root.version + 1
        } before then, or every app refuses the channel's files`,
        { channel, rootVersion: root.version, expires: new Date(root.expiresAt).toISOString() },
      );
    }
  }
}

/**
 * Runs the program; exits with 78 on a configuration error and 1 when it cannot start otherwise.
 *
 * @param runtime The runtime's name, for the 'listening' line.
 * @param start The runtime's way to start the server.
 */
export async function runProgram(runtime: string, start: Start): Promise<void> {
  const logger = createLogger();
  let running: Standalone | undefined;
  // Signals are handled before anything is announced: a stop that comes early is still graceful.
  onSignals(logger, () => running);
  try {
    const config = loadConfig(process.env, process.cwd());
    logger.level = config.observability.logLevel;
    running = await start(config, logger);
    announce(runtime, config, running, logger);
  } catch (error) {
    if (error instanceof ConfigError) {
      logger.error(`configuration error: ${error.message}`);
      process.exit(78);
    }
    // A database that cannot be reached at start, a port in use: say so plainly and let the supervisor retry.
    logger.error('could not start', { error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}
