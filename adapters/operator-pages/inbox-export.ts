/**
 * The Inbox and the orders as CSV, streamed: page after page of the operator API (500 rows each), each page
 * sent as it is read, so an export of any size holds one page in memory; and bounded in time, so a huge
 * inbox cannot keep the storage busy for good.
 *
 * @module
 */
import { csvLine, type CsvValue } from '../../core/formats/csv.ts';
import type { Outcome } from '../../core/operator/invoke.ts';
import type { listFeedback } from '../../core/operator/inbox.ts';
import type { OutputOf } from '../../core/operator/operation.ts';
import type { CoreResponse } from '../../core/http/http.ts';
import { pageHeaders } from './http.ts';

/** The longest an export may run: past it the answer is cut (the client sees an incomplete file). */
export const EXPORT_TIME_LIMIT_MS = 5 * 60 * 1000;

/** One page of the inbox as the operator API lists it. */
export type InboxPage = OutputOf<typeof listFeedback>;

/** One page of rows of a listing operation, and the cursor of the next one (null on the last). */
export interface CsvSourcePage<Cursor> {
  entries: readonly Readonly<Record<string, CsvValue>>[];
  next: Cursor | null;
}

/**
 * The CSV text of every page, the header line first.
 *
 * @param first The first page (read before the answer starts, so that a refusal has its own status).
 * @param read Reads the page after a cursor (the inbox: below an id).
 * @param columns The CSV columns.
 * @param now The clock.
 * @throws Error, ending the answer short, when a later page is refused or the time limit passes.
 */
export async function* csvPages<Cursor>(
  first: CsvSourcePage<Cursor>,
  read: (next: Cursor) => Promise<Outcome<CsvSourcePage<Cursor>>>,
  columns: readonly string[],
  now: () => number,
): AsyncGenerator<string> {
  const deadline = now() + EXPORT_TIME_LIMIT_MS;
  let page = first;
  let text = columns.join(',') + '\r\n';
  for (;;) {
    for (const entry of page.entries) text += csvLine(entry, columns);
    yield text;
    text = '';
    if (page.next === null) return;
    if (now() > deadline) throw new Error(`the export ran past ${EXPORT_TIME_LIMIT_MS / 60_000} minutes`);
    const outcome = await read(page.next);
    if (!outcome.ok) throw new Error(`the export was refused: ${outcome.message}`);
    page = outcome.value;
  }
}

/**
 * A CSV file answer: the first page's refusal as text with its status, else every page streamed.
 *
 * @param filename The name the browser saves it as.
 */
export function csvFile<Cursor>(
  first: Outcome<CsvSourcePage<Cursor>>,
  read: (next: Cursor) => Promise<Outcome<CsvSourcePage<Cursor>>>,
  columns: readonly string[],
  filename: string,
  now: () => number,
): CoreResponse {
  if (!first.ok) return { status: first.status, headers: pageHeaders({ 'content-type': 'text/plain; charset=utf-8' }), body: `${first.message}\n${first.resolution}\n` };
  const disposition = `attachment; filename="${filename}"`;
  const headers = pageHeaders({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': disposition });
  return { status: 200, headers, body: null, stream: csvPages(first.value, read, columns, now) };
}
