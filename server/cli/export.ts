/**
 * `converter-site-api export feedback|downloads [--format json|csv] [--out FILE]` (`npm run export`):
 * writes the feedback or the download counts of the configured storage (same environment as the
 * server) to stdout, or to a file. Only data goes to stdout; messages go to stderr.
 *
 * @module
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { DOWNLOAD_COLUMNS, downloadRow, type ExportFormat, FEEDBACK_COLUMNS, feedbackRow, writeRows } from '../../adapters/export/format.ts';
import { listFeedback } from '../../core/operator/inbox.ts';
import type { Logger } from '../../core/ports/ports.ts';
import type { InboxEntry } from '../../core/ports/store-ports.ts';
import { ConfigError } from '../config-error.ts';
import { consoleLogger } from '../logger.ts';
import { type OpenedStorage, openStorage } from '../open-storage.ts';
import { storageSettings } from '../storage-config.ts';
import { type Command, EXIT, parseCommandLine, UsageError } from './command.ts';
import { findOperatorApi, type OperatorApi, prepare, requestOperator } from './operator-api.ts';

/** Logs go to stderr so that stdout holds only the export. */
const logger: Logger = { ...consoleLogger, info: consoleLogger.warn };

/** Every feedback entry through the operator API's inbox, oldest first as the storage export gives them. */
async function feedbackThroughApi(api: OperatorApi): Promise<InboxEntry[]> {
  const entries: InboxEntry[] = [];
  let before: number | null | undefined;
  while (before !== null) {
    const page = await requestOperator(api, prepare(listFeedback, { query: { limit: '500', before: before === undefined ? undefined : String(before) } }));
    if (!page.ok) throw new Error(page.message);
    for (const e of page.value.entries) {
      entries.push({ ...e, receivedAt: Date.parse(e.receivedAt), handledAt: e.handledAt === null ? null : Date.parse(e.handledAt) });
    }
    before = page.value.next;
  }
  return entries.reverse();
}

async function writeExport(storage: OpenedStorage, what: 'feedback' | 'downloads', format: ExportFormat, write: (text: string) => void) {
  if (what === 'feedback') {
    const rows = (async function* () {
      for await (const entry of storage.feedbackEntries()) yield feedbackRow(entry);
    })();
    await writeRows(rows, format, FEEDBACK_COLUMNS, write);
  } else {
    await writeRows((await storage.downloadCounts()).map(downloadRow), format, DOWNLOAD_COLUMNS, write);
  }
}

/**
 * Writes to FILE through a temporary file beside it, renamed once complete: a failed export never leaves
 * half a file, nor replaces an earlier good one.
 */
export async function toFile(file: string, produce: (write: (text: string) => void) => Promise<void>): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  const fd = openSync(partial, 'w', 0o600);
  try {
    await produce((text) => void writeSync(fd, text));
    closeSync(fd);
    renameSync(partial, file);
  } catch (error) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  }
}

function parse(args: string[]) {
  const { values, positionals } = parseCommandLine(
    args,
    { format: { type: 'string', short: 'f', default: 'json' }, out: { type: 'string', short: 'o' } },
    1,
  );
  const [what] = positionals;
  if (what !== 'feedback' && what !== 'downloads') {
    throw new UsageError(what === undefined ? 'say what to export: feedback or downloads' : `cannot export ${JSON.stringify(what)}: feedback or downloads`);
  }
  const format = values['format'];
  if (format !== 'json' && format !== 'csv') throw new UsageError(`--format must be json or csv, not ${JSON.stringify(format)}`);
  const out = typeof values['out'] === 'string' ? values['out'] : undefined;
  return { what, format, out } as const;
}

export const exportData: Command = {
  name: 'export',
  summary: 'write feedback or download counts as JSON or CSV',
  help: `usage: converter-site-api export <feedback|downloads> [--format json|csv] [--out FILE]

Writes the records of the storage the server uses (same environment) to stdout, or to FILE.
  feedback     every feedback entry: id, receivedAt, type, rating, appVersion, email, description,
               handledAt (the columns of the Inbox page's CSV)
  downloads    download counts per UTC day, source, platform and forced
  -f, --format json (default; an array, one element per line) or csv (RFC 4180)
  -o, --out    write to FILE (through a temporary file, renamed when complete) instead of stdout
Only the data goes to stdout; messages go to stderr. On PGlite, run it while the server is stopped, or
set OPERATOR_URL and OPERATOR_TOKEN: feedback is then read through the running server's operator API.
From a checkout: npm run --silent export -- feedback --format csv > feedback.csv

exit codes: 0 done, 1 the storage failed, 64 usage error,
            78 a setting is refused or another process holds DATA_DIR
`,
  async run(args, io) {
    const { what, format, out } = parse(args);
    const settings = storageSettings(process.env, process.cwd());
    if (settings.kind === 'memory') logger.warn('STORAGE=memory keeps nothing between runs: the export is empty');
    const deliver = (produce: (write: (text: string) => void) => Promise<void>) => out === undefined ? produce(io.stdout) : toFile(resolve(out), produce);
    let storage: OpenedStorage;
    try {
      storage = await openStorage(settings, { logger, background: false });
    } catch (error) {
      // The running server holds DATA_DIR: its operator API reads the feedback instead, when it is set.
      const api = findOperatorApi(process.env);
      if (!(error instanceof ConfigError && /in use by process/.test(error.message) && api && what === 'feedback')) throw error;
      logger.warn('DATA_DIR is held by the running server: reading the feedback through its operator API', { url: api.url });
      const entries = await feedbackThroughApi(api);
      await deliver((write) => writeRows(entries.map(feedbackRow), format, FEEDBACK_COLUMNS, write));
      return EXIT.ok;
    }
    try {
      await deliver((write) => writeExport(storage, what, format, write));
    } finally {
      await storage.close();
    }
    return EXIT.ok;
  },
};
