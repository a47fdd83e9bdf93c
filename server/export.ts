/**
 * `npm run export -- feedback|downloads [--format json|csv]`: writes the feedback or the download counts
 * of the configured storage (same environment as `npm start`) to stdout.
 *
 * @module
 */
import { DOWNLOAD_COLUMNS, downloadRow, FEEDBACK_COLUMNS, feedbackRow, writeRows, type ExportFormat } from '../adapters/export/format.ts';
import { ConfigError } from './config-error.ts';
import { consoleLogger } from './logger.ts';
import { openStorage } from './open-storage.ts';
import { storageSettings } from './storage-config.ts';

const USAGE = 'usage: npm run export -- feedback|downloads [--format json|csv]';

function parseArgs(args: readonly string[]): { what: 'feedback' | 'downloads'; format: ExportFormat } {
  const [what, flag, value, ...rest] = args;
  const format = flag === undefined ? 'json' : flag === '--format' ? value : undefined;
  if ((what !== 'feedback' && what !== 'downloads') || (format !== 'json' && format !== 'csv') || rest.length > 0) {
    throw new ConfigError(USAGE);
  }
  return { what, format };
}

/** Logs go to stderr so that stdout holds only the export. */
const logger = { ...consoleLogger, info: consoleLogger.warn };

try {
  const { what, format } = parseArgs(process.argv.slice(2));
  const settings = storageSettings(process.env, process.cwd());
  if (settings.kind === 'memory') logger.warn('STORAGE=memory keeps nothing between runs: the export is empty');
  const storage = await openStorage(settings, { logger, background: false });
  const write = (text: string) => void process.stdout.write(text);
  try {
    if (what === 'feedback') {
      const rows = (async function* () {
        for await (const entry of storage.feedbackEntries()) yield feedbackRow(entry);
      })();
      await writeRows(rows, format, FEEDBACK_COLUMNS, write);
    } else {
      await writeRows((await storage.downloadCounts()).map(downloadRow), format, DOWNLOAD_COLUMNS, write);
    }
  } finally {
    await storage.close();
  }
} catch (error) {
  logger.error(error instanceof ConfigError ? error.message : `export failed: ${String(error)}`);
  process.exit(error instanceof ConfigError ? 64 : 1);
}
