/**
 * Pieces the operator answers' schemas share: a time as ISO 8601, a page's `next` cursor.
 *
 * @module
 */
import * as v from 'valibot';

/** A time as ISO 8601 (UTC, milliseconds). */
export const IsoTime = v.pipe(v.string(), v.description('A time as ISO 8601, e.g. 2026-11-01T09:30:00.000Z.'));

/** A stored time in milliseconds as ISO 8601; null stays null. */
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** The `before` to give for the next page, or null on the last one. */
export const NextCursor = v.pipe(v.nullable(v.number()), v.description('Give it as `before` for the next page; null on the last page.'));

/** A whole number in a query string. */
export const QueryDigits = v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be a whole number'), v.transform(Number));

/** The `before` of the row list is at most `limit` long: the next page starts below the last id shown. */
export function nextOf(rows: readonly { id: number }[], limit: number): number | null {
  return rows.length === limit ? rows[rows.length - 1]!.id : null;
}
