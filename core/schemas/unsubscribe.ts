/**
 * One-click unsubscribe from the shipped-request mails (POST /api/v1/unsubscribe, an addition to the spec).
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';

/**
 * The token of a mail's unsubscribe address, as core/mail/unsubscribe.ts makes it: the address as unpadded
 * base64url (2 to 700 characters, never a length of 1 more than a multiple of 4, which no bytes encode to), a
 * dot, and 22 base64url characters of a keyed hash of the address. A token of this shape that the server did
 * not make is 404 token_not_found; one of any other shape is 400 invalid_parameter.
 */
export const UnsubscribeTokenSchema: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.regex(
    /^(?:[A-Za-z0-9_-]{4}){0,174}(?:[A-Za-z0-9_-]{4}|[A-Za-z0-9_-]{2,3})\.[A-Za-z0-9_-]{22}$/,
    'must be the token of an unsubscribe address, as the mail gave it',
  ),
  v.description(
    'The token of the unsubscribe address a shipped-request mail gave: the address as unpadded base64url, a dot and 22 ' +
      'base64url characters. A token of this shape that this server did not make is answered 404 token_not_found.',
  ),
);

/** The answer of an unsubscribe. */
export interface Unsubscribed {
  unsubscribed: true;
  message: string;
}
const unsubscribed = v.strictObject({ unsubscribed: v.literal(true), message: v.string() });
type _Unsubscribed = Assert<Equal<v.InferOutput<typeof unsubscribed>, Unsubscribed>>;
export const UnsubscribedSchema: v.GenericSchema<Unsubscribed> = unsubscribed;
