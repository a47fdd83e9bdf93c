/**
 * CSV (RFC 4180) cells and lines, for the exports of the CLI and of the operator pages.
 *
 * @module
 */

/** A value of a CSV cell: null is an empty cell. */
export type CsvValue = string | number | boolean | null;

/**
 * One CSV cell. Text that a spreadsheet would run as a formula (= + - @, tab, CR at the start) gets a
 * leading apostrophe: feedback is written by strangers and exports are opened in spreadsheets.
 */
export function csvCell(value: CsvValue): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line of a row's columns, with its CRLF. */
export function csvLine(row: Readonly<Record<string, CsvValue>>, columns: readonly string[]): string {
  return columns.map((c) => csvCell(row[c] ?? null)).join(',') + '\r\n';
}
