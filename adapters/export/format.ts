/**
 * Export formats: JSON (an array, written one element per line) and CSV (RFC 4180).
 *
 * @module
 */
import { csvLine, type CsvValue } from '../../core/formats/csv.ts';
import { FEEDBACK_EXPORT_COLUMNS } from '../../core/operator/inbox.ts';
import type { InboxEntry } from '../../core/ports/store-ports.ts';
import type { DownloadCount } from './source.ts';

export type ExportFormat = 'json' | 'csv';

/** A flat row of an export: strings, numbers, booleans or null (an empty CSV cell). */
type Row = Record<string, CsvValue>;

/** A feedback entry as exported (the Inbox page's CSV has the same columns): times as ISO 8601 UTC. */
export function feedbackRow(entry: InboxEntry): Row {
  return {
    id: entry.id,
    receivedAt: new Date(entry.receivedAt).toISOString(),
    type: entry.type,
    rating: entry.rating,
    appVersion: entry.appVersion,
    email: entry.email,
    description: entry.description,
    handledAt: entry.handledAt === null ? null : new Date(entry.handledAt).toISOString(),
  };
}

/** A download count as exported. */
export function downloadRow(count: DownloadCount): Row {
  return { day: count.day, source: count.source, platform: count.platform, forced: count.forced, count: count.count };
}

/**
 * Writes rows in a format, one `write` per line.
 *
 * @param rows The rows; every row has the columns of the first (or `columns` when there are none).
 * @param format json or csv.
 * @param columns The CSV header when there may be no rows.
 * @param write Where the text goes.
 */
export async function writeRows(
  rows: AsyncIterable<Row> | Iterable<Row>,
  format: ExportFormat,
  columns: readonly string[],
  write: (text: string) => void,
): Promise<void> {
  let first = true;
  if (format === 'csv') write(columns.join(',') + '\r\n');
  else write('[');
  for await (const row of rows) {
    if (format === 'csv') write(csvLine(row, columns));
    else write(`${first ? '\n' : ',\n'}${JSON.stringify(row)}`);
    first = false;
  }
  if (format === 'json') write(first ? ']\n' : '\n]\n');
}

/** The columns of each export, in order. */
export const FEEDBACK_COLUMNS = FEEDBACK_EXPORT_COLUMNS;
export const DOWNLOAD_COLUMNS = ['day', 'source', 'platform', 'forced', 'count'] as const;
