/**
 * Times cross the SQL boundary as milliseconds since the epoch (the ports' unit) and are stored as
 * timestamptz (the operators' unit). These two fragments are the only conversions.
 *
 * @module
 */

/**
 * The SQL expression of a timestamptz column as epoch milliseconds (float8, exact for whole ms).
 *
 * @param column The column or expression.
 */
export function epochMs(column: string): string {
  return `round(extract(epoch from ${column}) * 1000)::float8`;
}

/**
 * The SQL expression of an epoch-milliseconds parameter as a timestamptz.
 *
 * @param param The parameter, e.g. "$6".
 */
export function fromEpochMs(param: string): string {
  return `to_timestamp(${param}::float8 / 1000)`;
}

/**
 * The SQL expression of a timestamptz as the text Date#toISOString gives (UTC, milliseconds, "Z").
 *
 * @param column The column or expression.
 */
export function iso(column: string): string {
  return `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
