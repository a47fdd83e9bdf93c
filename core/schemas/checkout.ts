/**
 * A new checkout session and a session's status (POST /api/v1/checkout/create, GET /api/v1/checkout/status).
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';
import { Link } from './link.ts';

/** A new checkout session (POST /api/v1/checkout/create). */
export interface CheckoutCreateResponse {
  /** Checkout session identifier, for GET /api/v1/checkout/status. */
  sessionId: string;
  /** Hosted checkout address to open in a browser. */
  url: string;
}
const checkoutCreateResponse = v.strictObject({
  sessionId: v.pipe(v.string(), v.minLength(1), v.description('Checkout session identifier.')),
  url: v.pipe(Link, v.description('Hosted checkout address to open in a browser.')),
});
type _CheckoutCreateResponse = Assert<Equal<v.InferOutput<typeof checkoutCreateResponse>, CheckoutCreateResponse>>;
export const CheckoutCreateResponseSchema: v.GenericSchema<CheckoutCreateResponse> = checkoutCreateResponse;

/** The payment status and license keys of a checkout session (GET /api/v1/checkout/status). */
export interface CheckoutStatus {
  status: 'pending' | 'processing' | 'paid';
  /**
   * The key of the purchased product; null until paid, and while the order's licenses are revoked. The
   * format is in docs/licensing.md.
   */
  licenseKey?: string | null | undefined;
  /** Standard license key; null until paid, and while revoked. */
  standardLicenseKey?: string | null | undefined;
  /** Plus license key; null until paid, and while revoked. */
  plusLicenseKey?: string | null | undefined;
}

const LicenseKey = v.nullable(v.string());
/** Keys issued before format version 2 (`key/...`) are returned as they were issued. */
const LICENSE_KEY_DESCRIPTION =
  "The key of the purchased product; null until paid, and while the order's licenses are revoked (a refund or a dispute). Ed25519-signed, verified offline: 24 groups of 5 Crockford base32 characters " +
  '(e.g. 202GK-N4ZFF-...-FN488, 143 characters; case, dashes and spaces do not matter when typed), or key/... for a key issued ' +
  'before that format. Keys of the payment simulator start with S and are never a license.';
const checkoutStatus = v.strictObject({
  status: v.picklist(['pending', 'processing', 'paid']),
  licenseKey: v.optional(v.pipe(LicenseKey, v.description(LICENSE_KEY_DESCRIPTION))),
  standardLicenseKey: v.optional(v.pipe(LicenseKey, v.description('Standard license key; null until paid, and while revoked.'))),
  plusLicenseKey: v.optional(v.pipe(LicenseKey, v.description('Plus license key; null until paid, and while revoked.'))),
});
type _CheckoutStatus = Assert<Equal<v.InferOutput<typeof checkoutStatus>, CheckoutStatus>>;
export const CheckoutStatusSchema: v.GenericSchema<CheckoutStatus> = checkoutStatus;
