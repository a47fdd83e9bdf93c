/**
 * The Inbox as CSV, streamed: page after page of the operator API (500 entries each), each page sent as
 * it is read, so an export of any size holds one page in memory; and bounded in time, so a huge inbox
 * cannot keep the storage busy for good.
 *
 * @module
 */
import { csvLine } from '../../core/formats/csv.ts';
import type { Outcome } from '../../core/operator/invoke.ts';
import type { listFeedback } from '../../core/operator/inbox.ts';
import type { OutputOf } from '../../core/operator/operation.ts';

/** The longest an export may run: past it the answer is cut (the client sees an incomplete file). */
export const EXPORT_TIME_LIMIT_MS = 5 * 60 * 1000;

/** One page of the inbox as the operator API lists it. */
export type InboxPage = OutputOf<typeof listFeedback>;

/**
 * The CSV text of every page, the header line first.
 *
 * @param first The first page (read before the answer starts, so that a refusal has its own status).
 * @param read Reads the page below an id.
 * @param columns The CSV columns.
 * @param now The clock.
 * @throws Error, ending the answer short, when a later page is refused or the time limit passes.
 */
export async function* csvPages(
  first: InboxPage,
  read: (before: number) => Promise<Outcome<InboxPage>>,
  columns: readonly string[],
  now: () => number,
): AsyncGenerator<string> {
  const deadline = now() + EXPORT_TIME_LIMIT_MS;
  let page = first;
  let text = columns.join(',') + '\r\n';
  for (;;) {
    for (const entry of page.entries) text += csvLine({ ...entry }, columns);
    yield text;
    text = '';
    if (page.next === null) return;
    if (now() > deadline) throw new Error(`the export ran past ${EXPORT_TIME_LIMIT_MS / 60_000} minutes`);
    const outcome = await read(page.next);
    if (!outcome.ok) throw new Error(`the export was refused: ${outcome.message}`);
    page = outcome.value;
  }
}
