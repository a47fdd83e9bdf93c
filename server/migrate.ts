/**
 * `npm run migrate`: brings the configured database (same environment as `npm start`) to the latest
 * schema and prints what it did. The server also migrates at start; this is for deploy pipelines that
 * migrate first.
 *
 * @module
 */
import { mkdirSync } from 'node:fs';
import { createPgliteClient } from '../adapters/pglite/index.ts';
import { createPostgresClient } from '../adapters/postgres/index.ts';
import { migrate } from '../adapters/sql/migrate.ts';
import { ConfigError } from './config-error.ts';
import { consoleLogger as logger } from './logger.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { describeStorage } from './open-storage.ts';
import { storageSettings } from './storage-config.ts';

try {
  const settings = storageSettings(process.env, process.cwd());
  if (settings.kind === 'memory') {
    logger.info('STORAGE=memory has no schema: nothing to migrate');
  } else {
    if (settings.kind === 'pglite') mkdirSync(settings.dataDir, { recursive: true });
    const unlock = settings.kind === 'pglite' ? lockDataDir(settings.dataDir) : () => {};
    try {
      const client =
        settings.kind === 'pglite'
          ? await createPgliteClient({ dataDir: settings.dataDir })
          : createPostgresClient({ url: settings.url, schema: settings.schema });
      try {
        const report = await migrate(client);
        logger.info(report.applied.length > 0 ? 'migrated' : 'already up to date', { ...describeStorage(settings), ...report });
      } finally {
        await client.close();
      }
    } finally {
      unlock();
    }
  }
} catch (error) {
  logger.error(error instanceof ConfigError ? error.message : `migration failed: ${String(error)}`);
  process.exit(error instanceof ConfigError ? 78 : 1);
}
