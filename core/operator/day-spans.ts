/**
 * Long operator reads in spans of days: GET /stats over a year reads a month at a time, so that no one
 * statement runs long (on 1M feedback entries in PostgreSQL a 365-day count took 1.8-2.2 s, past the 1 s
 * statement timeout; a 31-day span 0.2 s) and none holds a connection the public API waits for.
 *
 * @module
 */

/** The longest span one statement of GET /stats reads. */
export const STATS_SPAN_DAYS = 31;

/**
 * Reads the days from `fromDay` to `toDay` (both included) in spans of at most `span` days, one after
 * another, and joins the rows in day order (each span's rows are in day order and the spans ascend).
 *
 * @param read One statement's read of a span.
 */
export async function readInSpans<T>(fromDay: number, toDay: number, read: (from: number, to: number) => Promise<T[]>, span = STATS_SPAN_DAYS): Promise<T[]> {
  const rows: T[] = [];
  for (let from = fromDay; from <= toDay; from += span) rows.push(...(await read(from, Math.min(toDay, from + span - 1))));
  return rows;
}
