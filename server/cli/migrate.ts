/**
 * `converter-site-api migrate` (`npm run migrate`): brings the configured database (same environment as
 * the server) to the latest schema and logs what it did. The server also migrates at start; this is for
 * deploy pipelines that migrate first.
 *
 * @module
 */
import { mkdirSync } from 'node:fs';
import { migrate as migrateSql } from '../../adapters/sql/migrate.ts';
import { lockDataDir } from '../data-dir-lock.ts';
import { consoleLogger as logger } from '../logger.ts';
import { describeStorage } from '../open-storage.ts';
import { type StorageSettings, storageSettings } from '../storage-config.ts';
import { type Command, EXIT, parseCommandLine } from './command.ts';

async function migrateDatabase(settings: Exclude<StorageSettings, { kind: 'memory' }>): Promise<void> {
  if (settings.kind === 'pglite') mkdirSync(settings.dataDir, { recursive: true });
  const unlock = settings.kind === 'pglite' ? lockDataDir(settings.dataDir) : () => {};
  try {
    const client = settings.kind === 'pglite'
      ? await (await import('../../adapters/pglite/index.ts')).createPgliteClient({ dataDir: settings.dataDir })
      : (await import('../../adapters/postgres/index.ts')).createPostgresClient({ url: settings.url, schema: settings.schema });
    try {
      const report = await migrateSql(client);
      logger.info(report.applied.length > 0 ? 'migrated' : 'already up to date', { ...describeStorage(settings), ...report });
    } finally {
      await client.close();
    }
  } finally {
    unlock();
  }
}

export const migrate: Command = {
  name: 'migrate',
  summary: 'bring the database to the latest schema, then exit',
  help: `usage: converter-site-api migrate

Applies the pending migrations to the storage the server would use (STORAGE, DATA_DIR, DATABASE_URL,
DATABASE_SCHEMA), under the same lock as the server, and logs the result as a JSON line on stdout.
The server also migrates at start; run this first in pipelines that migrate before rolling out.

exit codes: 0 done, 1 the database failed, 64 usage error,
            78 a setting is refused or another process holds DATA_DIR
`,
  async run(args) {
    parseCommandLine(args, {});
    const settings = storageSettings(process.env, process.cwd());
    if (settings.kind === 'memory') logger.info('STORAGE=memory has no schema: nothing to migrate');
    else await migrateDatabase(settings);
    return EXIT.ok;
  },
};
