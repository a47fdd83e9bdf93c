/**
 * The standalone program, whatever the runtime: load the configuration, start listening, log what is
 * served, and stop gracefully on SIGTERM/SIGINT. Each runtime's entry point passes its own `listen`.
 *
 * @module
 */
import { ConfigError, loadConfig, type ServerConfig } from './config.ts';
import { consoleLogger } from './logger.ts';
import type { Logger } from '../core/ports.ts';

/** A server that is listening. */
export interface Listening {
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then closes storage. */
  stop(): Promise<void>;
}

/** Starts a server for a configuration on one runtime. */
export type Listen = (config: ServerConfig, logger: Logger) => Promise<Listening>;

/**
 * Runs the program; exits with 78 on a configuration error.
 *
 * @param runtime The runtime's name, for the startup log.
 * @param listen The runtime's way to serve the app.
 */
export async function runProgram(runtime: string, listen: Listen): Promise<void> {
  const logger = consoleLogger;
  try {
    const config = loadConfig(process.env, process.cwd());
    const running = await listen(config, logger);
    logger.info('listening', {
      url: running.url,
      runtime,
      publicBaseUrl: config.publicBaseUrl,
      config: config.file,
      storage: config.storage,
      trustedProxies: config.trustedProxies?.source ?? [],
    });
    if (config.isExample) {
      logger.warn('serving the EXAMPLE content shipped with the server; set CONFIG_FILE or create ./config.json');
    }
    logger.warn('payments go to the local PAYMENT SIMULATOR: no money is taken (see docs/configuration.md)');
    if (config.storage === 'memory') logger.warn('STORAGE=memory: votes, feedback and licenses are lost on restart');

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
    throw error;
  }
}
