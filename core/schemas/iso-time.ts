/**
 * A stored time (milliseconds) as the JSON answers show it: ISO 8601, UTC, with milliseconds.
 *
 * @module
 */
import * as v from 'valibot';

/** A time as ISO 8601 (UTC, milliseconds). */
export const IsoTime = v.pipe(v.string(), v.description('A time as ISO 8601, e.g. 2026-11-01T09:30:00.000Z.'));

/** A stored time in milliseconds as ISO 8601; null stays null. */
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
