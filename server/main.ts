/**
 * The standalone server program: `npm start`.
 *
 * @module
 */
import { ConfigError, loadConfig } from './config.ts';
import { consoleLogger as logger } from './logger.ts';
import { startServer, type RunningServer } from './start.ts';

let running: RunningServer | undefined;

// Signals are handled before anything is announced: a stop that comes early is still graceful.
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info('stopping: finishing requests in flight', { signal });
    (running?.stop() ?? Promise.resolve()).then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error('stop failed', { error: String(error) });
        process.exit(1);
      },
    );
  });
}

try {
  const config = loadConfig(process.env, process.cwd());
  running = await startServer(config, logger);
  if (config.isExample) {
    logger.warn('serving the EXAMPLE content shipped with the server; set CONFIG_FILE or create ./config.json');
  }
  const { payment } = config;
  if (payment.gateway === 'simulator') {
    logger.warn('payments go to the local PAYMENT SIMULATOR: no money is taken (see docs/configuration.md)');
  } else {
    logger.info('payments go to Stripe Checkout', { mode: payment.testMode ? 'test' : 'live', apiBase: payment.apiBase ?? 'https://api.stripe.com' });
  }
  logger.info('license keys are signed with Ed25519; give the desktop app this public key', {
    publicKey: running.licensePublicKey,
    source: running.licenseKeySource,
  });
  if (config.storage === 'memory') logger.warn('STORAGE=memory: votes, feedback and licenses are lost on restart');
  if (config.storage === 'memory' && running.licenseKeySource === 'storage') {
    logger.warn('the license signing key was generated for this run only: set LICENSE_SIGNING_KEY (npm run license -- generate-key) so keys keep verifying after a restart');
  }
  logger.info('listening', {
    url: running.url,
    publicBaseUrl: running.publicBaseUrl,
    config: config.file,
    storage: config.storage,
    trustedProxies: config.trustedProxies?.source ?? [],
  });
} catch (error) {
  if (error instanceof ConfigError) {
    logger.error(`configuration error: ${error.message}`);
    process.exit(78);
  }
  throw error;
}
