/**
 * POST /api/v1/licenses/resend (an addition to the spec): the request, and the one answer every
 * request gets, whatever the address.
 *
 * @module
 */
import * as v from 'valibot';
import { MAX_ADDRESS_LENGTH, ONE_ADDRESS, ONE_ADDRESS_RULE } from './email-address.ts';
import type { Assert, Equal } from './exact.ts';

/** The address whose keys to mail again. */
export interface LicenseResendRequest {
  /** The buyer's email address, as given at checkout (any case). */
  email: string;
}
const licenseResendRequest = v.strictObject({
  email: v.pipe(
    v.string('must be a string'),
    v.maxLength(MAX_ADDRESS_LENGTH, `must be at most ${MAX_ADDRESS_LENGTH} characters long`),
    // Exactly what the OpenAPI's pattern says (no `format: email`, which also allows quoted and bracketed forms).
    v.regex(ONE_ADDRESS, ONE_ADDRESS_RULE),
    v.description('The email address the licenses were bought with (any case): one address, an RFC 5322 addr-spec in dot-atom form (ASCII).'),
  ),
});
type _LicenseResendRequest = Assert<Equal<v.InferOutput<typeof licenseResendRequest>, LicenseResendRequest>>;
export const LicenseResendRequestSchema: v.GenericSchema<LicenseResendRequest> = licenseResendRequest;

/** The answer to every accepted resend request (202), whether or not the address has orders. */
export interface LicenseResendAccepted {
  accepted: true;
  message: string;
}
const licenseResendAccepted = v.strictObject({ accepted: v.literal(true), message: v.string() });
type _LicenseResendAccepted = Assert<Equal<v.InferOutput<typeof licenseResendAccepted>, LicenseResendAccepted>>;
export const LicenseResendAcceptedSchema: v.GenericSchema<LicenseResendAccepted> = licenseResendAccepted;

/** The one body of a 202: the same for every address, so that it tells nobody who bought. */
export const RESEND_ACCEPTED: LicenseResendAccepted = {
  accepted: true,
  message: 'If this address has valid licenses on file, a message with them is on its way to it.',
};
