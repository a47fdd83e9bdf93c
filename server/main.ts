/**
 * The standalone server program: `npm start`.
 *
 * @module
 */
import { ConfigError, loadConfig } from './config.ts';
import { consoleLogger } from './logger.ts';
import { describeStorage } from './open-storage.ts';
import { startServer } from './start.ts';

const logger = consoleLogger;

try {
  const config = loadConfig(process.env, process.cwd());
  const running = await startServer(config, logger);
  logger.info('listening', {
    url: running.url,
    publicBaseUrl: config.publicBaseUrl,
    config: config.file,
    ...describeStorage(config.storage),
    trustedProxies: config.trustedProxies?.source ?? [],
  });
  if (config.isExample) {
    logger.warn('serving the EXAMPLE content shipped with the server; set CONFIG_FILE or create ./config.json');
  }
  logger.warn('payments go to the local PAYMENT SIMULATOR: no money is taken (see docs/configuration.md)');
  if (config.storage.kind === 'memory') logger.warn('STORAGE=memory: votes, feedback and licenses are lost on restart');

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      logger.info('stopping: finishing requests in flight', { signal });
      running.stop().then(
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
} catch (error) {
  if (error instanceof ConfigError) {
    logger.error(`configuration error: ${error.message}`);
    process.exit(78);
  }
  // A database that cannot be reached at start, a port in use: say so plainly and let the supervisor retry.
  logger.error('could not start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}
