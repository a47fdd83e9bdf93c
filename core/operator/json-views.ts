/**
 * Pieces the operator answers' schemas share: a time as ISO 8601, a page's `next` cursor.
 *
 * @module
 */
import * as v from 'valibot';

/** Times as ISO 8601 (core/schemas/iso-time.ts, shared with the release view of core/releases/release-json.ts). */
export { isoOrNull, IsoTime } from '../schemas/iso-time.ts';

/** The `before` to give for the next page, or null on the last one. */
export const NextCursor = v.pipe(v.nullable(v.number()), v.description('Give it as `before` for the next page; null on the last page.'));

/** A whole number in a query string. */
export const QueryDigits = v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be a whole number'), v.transform(Number));

/** The `before` of the row list is at most `limit` long: the next page starts below the last id shown. */
export function nextOf(rows: readonly { id: number }[], limit: number): number | null {
  return rows.length === limit ? rows[rows.length - 1]!.id : null;
}
