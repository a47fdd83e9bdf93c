/**
 * A license key's standing (POST /api/v1/licenses/validate, an addition to the spec): the request and the
 * answer the desktop app re-checks a key with (docs/licensing.md "Re-checking a key's standing").
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';

/** The longest key text accepted: a version-1 key of a long session id stays far below it. */
export const LICENSE_KEY_MAX = 1024;

/**
 * The shape of a license key of either format (docs/licensing.md), as one pattern /openapi.json can state:
 * a version-1 `key/<base64url>.<base64url>` (or `sim/...`), or 120 Crockford base32 characters (any letter
 * but U: I, L and O read as 1, 1 and 0) with spaces and dashes anywhere. Nothing is verified: a key of the
 * right shape may still be unknown.
 */
export const LICENSE_KEY_SHAPE = /^\s*(?:(?:key|sim)\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|[\s-]*(?:[0-9A-TV-Za-tv-z][\s-]*){120})\s*$/;

/** A nonce the app may send: 16 to 64 base64url characters (16 random bytes make 22). */
export const NONCE_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

/** A key to re-check (POST /api/v1/licenses/validate). */
export interface LicenseValidateRequest {
  /** The key as issued or as a person typed it (any case, dashes and spaces anywhere). */
  licenseKey: string;
  /** A fresh random value of the app's, which the answer's signature carries as its `nonce` parameter. */
  nonce?: string | undefined;
  /** `true` asks for the key's update terms (`updatesUntil`, `fallbackLine`) in the answer. An addition (issue 56). */
  updateTerms?: boolean | undefined;
}
// Each schema is built by a function marked free of side effects: the package's bundle keeps them in the
// chunk of the endpoints, and a page that does not call validateLicense then drops them (test/client/size.test.ts).
/* @__NO_SIDE_EFFECTS__ */
function validateRequest() {
  return v.object({
    licenseKey: v.pipe(
      v.string('is required: a license key'),
      v.maxLength(LICENSE_KEY_MAX, `must be a license key (at most ${LICENSE_KEY_MAX} characters)`),
      v.regex(LICENSE_KEY_SHAPE, 'must be a license key: 24 groups of 5 Crockford base32 characters, or key/... for a key issued before that format'),
      v.description(
        'The key as issued, or as a person typed it (any case, dashes and spaces anywhere). A text that does not ' +
          'have the shape of a key is refused with 400; a key of the right shape this server did not issue is "unknown".',
      ),
    ),
    nonce: v.optional(
      v.pipe(
        v.string('must be a text of 16 to 64 base64url characters'),
        v.regex(NONCE_SHAPE, 'must be 16 to 64 base64url characters (A-Z, a-z, 0-9, - and _), such as 16 random bytes in base64url'),
        v.description(
          "Optional: a fresh random value of the app's, 16 to 64 base64url characters (16 random bytes make 22). The signature " +
            'of the answer carries it as its RFC 9421 nonce parameter, so that an answer saved earlier does not verify for this request.',
        ),
      ),
    ),
    updateTerms: v.optional(
      v.pipe(
        v.boolean('must be true or false'),
        v.description(
          "An addition (issue 56): true asks for the key's update terms, `updatesUntil` and `fallbackLine`, in the answer (both always " +
            'present then). Without it the answer is as before, so a client that checks every field it knows sees nothing new.',
        ),
      ),
    ),
  });
}
const licenseValidateRequest = validateRequest();
type _LicenseValidateRequest = Assert<Equal<v.InferInput<typeof licenseValidateRequest>, LicenseValidateRequest>>;
/** POST /api/v1/licenses/validate. Fields not listed are ignored. */
export const LicenseValidateRequestSchema: v.GenericSchema<LicenseValidateRequest> = licenseValidateRequest;

/** What this server says of a key. */
export type LicenseStanding = 'valid' | 'revoked' | 'unknown';

/** A key's standing, signed like the update answers (RFC 9421). */
export interface LicenseValidation {
  standing: LicenseStanding;
  /** What the key unlocks; null unless valid. */
  product: 'standard' | 'plus' | null;
  /** Until when the app may go on without asking again (its lease), ISO 8601 UTC; null unless valid. */
  validUntil: string | null;
  /**
   * The end of the key's update window, RFC 3339 UTC (`2027-11-21T00:00:00Z`): it covers the releases
   * published up to then. Null for a key sold with lifetime updates, and unless valid. An addition (issue 56):
   * present when the request asks with `updateTerms: true`.
   */
  updatesUntil?: string | null | undefined;
  /** The major.minor line (of the stable channel) whose bug-fix releases the key covers after its window (`"2.6"`); null for lifetime, when none is covered, and unless valid. Present as `updatesUntil` is. */
  fallbackLine?: string | null | undefined;
}
/* @__NO_SIDE_EFFECTS__ */
function validation() {
  return v.strictObject({
    standing: v.pipe(
      v.picklist(['valid', 'revoked', 'unknown']),
      v.description(
        'valid: a paid order of this server holds the key. revoked: its order was refunded, lost a dispute or was ' +
          'revoked by the operator. unknown: this server issued no such key.',
      ),
    ),
    product: v.pipe(v.nullable(v.picklist(['standard', 'plus'])), v.description('What the key unlocks; null unless valid.')),
    validUntil: v.pipe(
      v.nullable(v.pipe(v.string(), v.isoTimestamp())),
      v.description('The end of the lease, ISO 8601 UTC to the second: the app may run on this answer until then, offline too. Null unless valid.'),
    ),
    updatesUntil: v.optional(v.pipe(
      v.nullable(v.pipe(v.string(), v.isoTimestamp())),
      v.description(
        "An addition (issue 56), present when the request asks with updateTerms: the end of the key's update window, RFC 3339 UTC (its " +
          'issue day at 00:00 plus the days it was sold with): the key covers every release published up to then. Null for a key sold ' +
          'with lifetime updates, and unless valid.',
      ),
    )),
    fallbackLine: v.optional(v.pipe(
      v.nullable(v.pipe(v.string(), v.regex(/^\d+\.\d+$/))),
      v.description(
        'An addition (issue 56), present as updatesUntil is: the major.minor line of the newest live release of the stable channel the ' +
          'window covers, such as "2.6": its bug-fix releases published after the window are covered too; any other later release is a ' +
          'paid upgrade. Null for lifetime, when no live release is covered, and unless valid.',
      ),
    )),
  });
}
const licenseValidation = validation();
type _LicenseValidation = Assert<Equal<v.InferOutput<typeof licenseValidation>, LicenseValidation>>;
export const LicenseValidationSchema: v.GenericSchema<LicenseValidation> = licenseValidation;
