/**
 * A path parameter with its percent escapes decoded, as the operator routes and pages read a version or
 * a session id. A malformed escape (`%E0%A4%A`, `%ZZ`) is kept as written, so it is answered as an unknown
 * version or session (404), not a 500 and an error log line.
 *
 * @module
 */

/** The decoded text of a path parameter, or the text as written when an escape in it is malformed. */
export function decodedParam(text: string | undefined): string {
  try {
    return decodeURIComponent(text ?? '');
  } catch {
    return text ?? '';
  }
}
