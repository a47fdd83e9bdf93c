/**
 * Percent escapes in what the operator API is sent: a path parameter (a version, a session id) and the
 * query. The API refuses a malformed escape (`%zz`, a cut-off `%E0%A4%A`, bytes that are no UTF-8) and a
 * NUL, which no version, id or search holds and PostgreSQL cannot store, with a 400 naming the part
 * (`invalid_path`, `invalid_query`). The pages' links keep the lenient reading (`decodedParam`).
 *
 * @module
 */
import { OperatorError } from './errors.ts';

/** The decoded text, or null when an escape in it is malformed or it holds a NUL. */
export function strictlyDecoded(text: string): string | null {
  try {
    const decoded = decodeURIComponent(text);
    return decoded.includes('\u0000') ? null : decoded;
  } catch {
    return null;
  }
}

/** The decoded text of a path parameter, or the text as written when an escape in it is malformed (for links). */
export function decodedParam(text: string | undefined): string {
  try {
    return decodeURIComponent(text ?? '');
  } catch {
    return text ?? '';
  }
}

/**
 * The decoded text of a path parameter.
 *
 * @throws OperatorError invalid_path when an escape is malformed or the text holds a NUL.
 */
export function pathParam(name: string, text: string): string {
  const decoded = strictlyDecoded(text);
  if (decoded === null) {
    throw new OperatorError(
      'invalid_path',
      `Path parameter "${name}" has a malformed percent escape or a NUL character: ${JSON.stringify(text.slice(0, 64))}.`,
    );
  }
  return decoded;
}

/**
 * Refuses a query whose escapes are malformed or that holds a NUL, in a name or a value (a form's `+` is a space).
 *
 * @throws OperatorError invalid_query naming the parameter.
 */
export function refuseBadQuery(query: string): void {
  for (const pair of query.split('&')) {
    if (strictlyDecoded(pair.replace(/\+/g, ' ')) !== null) continue;
    const name = pair.split('=')[0] ?? '';
    const shown = JSON.stringify((strictlyDecoded(name.replace(/\+/g, ' ')) ?? name).slice(0, 64));
    throw new OperatorError('invalid_query', `Query parameter ${shown} has a malformed percent escape or a NUL character.`);
  }
}

/**
 * A numeric id as a path gives it (a stored row's: 1 to 15 digits, no leading zero), else no such resource.
 *
 * @param code The operation's 404 code.
 * @param resource What has no such id, as the message names it ("webhook delivery", "mail").
 * @throws OperatorError `code` for anything else.
 */
export function storedIdOf<Code extends 'endpoint_not_found' | 'delivery_not_found' | 'mail_not_found'>(
  text: string,
  code: Code,
  resource: string,
): number {
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new OperatorError(code, `No ${resource} has id ${JSON.stringify(text.slice(0, 64))}.`);
  return Number(text);
}
