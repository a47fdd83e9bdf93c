/**
 * The two license operations this API adds to the spec (issue 35), declared like the spec's own in
 * endpoints.ts (which re-exports them): a key's standing, signed for the desktop app, and the buyer's
 * self-service resend of their keys.
 *
 * @module
 */
import type { Endpoint } from './endpoint.ts';
import { LicenseValidateRequestSchema, LicenseValidationSchema } from './schemas/license.ts';
import { LicenseResendAcceptedSchema, LicenseResendRequestSchema } from './schemas/licenses-resend.ts';

export const validateLicense = {
  operationId: 'validateLicense',
  method: 'POST',
  path: '/licenses/validate',
  versioned: true,
  tag: 'Licenses',
  summary: 'Re-check the standing of a license key',
  description:
    'An addition to the spec. Whether a key still stands: valid (with its product and the end of its lease), ' +
    'revoked (its order was refunded, lost a dispute or was revoked by the operator) or unknown. Signed like ' +
    'the update answers (RFC 9421, Ed25519, covering the status, Content-Digest and License-Key-Digest, the ' +
    'SHA-256 of the key as sent; tagged "license-standing", and carrying the request\'s optional nonce as its nonce ' +
    'parameter), so that the desktop app can trust it and run offline until validUntil. No machine id is sent or kept.',
  body: { schema: LicenseValidateRequestSchema, schemaName: 'LicenseValidateRequest', required: true },
  success: {
    status: 200,
    description: 'The standing of the key. Signed (RFC 9421) when the server signs answers: see Signature-Input.',
    schema: LicenseValidationSchema,
    schemaName: 'LicenseValidation',
    extraHeaders: ['Content-Digest', 'License-Key-Digest', 'Signature-Input', 'Signature'],
  },
  errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type'],
} as const satisfies Endpoint;

/** An addition to the spec (issue 35): the buyer's self-service resend of their keys. */
export const resendLicenses = {
  operationId: 'resendLicenses',
  method: 'POST',
  path: '/licenses/resend',
  versioned: true,
  tag: 'Licenses',
  summary: 'Mail the license keys of an address to that address',
  description:
    'An addition to the spec. Mails the valid (not revoked) license keys bought with this email address to that address only. ' +
    'Always 202 with the same body, whether or not the address has orders, so it tells nobody who bought. ' +
    'At most 5 requests per client per hour (429 too_many_resends), and at most 3 mails per address per ' +
    'day (further requests are answered alike and mail nothing).',
  body: { schema: LicenseResendRequestSchema, schemaName: 'LicenseResendRequest', required: true },
  success: { status: 202, description: 'Accepted: the same answer for every address.', schema: LicenseResendAcceptedSchema, schemaName: 'LicenseResendAccepted' },
  errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'too_many_resends'],
} as const satisfies Endpoint;
