/**
 * One-click unsubscribe from the shipped-request mails (POST /api/v1/unsubscribe, an addition to the spec).
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';

/** The token of a mail's unsubscribe address: the address and a keyed hash of it (core/mail/unsubscribe.ts). */
export const UnsubscribeTokenSchema: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9_-]{1,700}\.[A-Za-z0-9_-]{22}$/, 'must be the token of an unsubscribe address, as the mail gave it'),
  v.description('The token of the unsubscribe address a shipped-request mail gave.'),
);

/** The answer of an unsubscribe. */
export interface Unsubscribed {
  unsubscribed: true;
  message: string;
}
const unsubscribed = v.strictObject({ unsubscribed: v.literal(true), message: v.string() });
type _Unsubscribed = Assert<Equal<v.InferOutput<typeof unsubscribed>, Unsubscribed>>;
export const UnsubscribedSchema: v.GenericSchema<Unsubscribed> = unsubscribed;
