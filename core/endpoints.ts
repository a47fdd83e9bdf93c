/**
 * The public table: one row per endpoint of the interface, in the order of /openapi.json and /llms.txt.
 * A row is what the operation is apart from how the server answers it (endpoint.ts: operationId, method,
 * path, request and response schemas, error codes); `API_ROUTES` (api.ts) binds each row to its operation.
 * The router, /openapi.json, /llms.txt and the typed client (client/) are all derived from these rows,
 * so a caller's types come from the schemas the server validates with.
 *
 * Every export of this module is part of `converter-site-api/client`, which re-exports it whole: each row
 * by its own name (plain data, not one namespace object, which bundlers keep whole) so that a page keeps
 * only the rows it calls, and `PUBLIC_ENDPOINTS`. Adding an endpoint: docs/architecture.md, "Adding an
 * operation".
 *
 * @module
 */
import type { Endpoint } from './endpoint.ts';
import { LicenseValidateRequestSchema, LicenseValidationSchema } from './schemas/license.ts';
import { LicenseResendAcceptedSchema, LicenseResendRequestSchema } from './schemas/licenses-resend.ts';
import {
  CheckoutCreateRequestSchema,
  DownloadForceSchema,
  DownloadSourceSchema,
  FeedbackRequestSchema,
  InstallPingRequestSchema,
  SessionIdSchema,
  VoteRequestSchema,
} from './schemas/requests.ts';
import { CheckoutCreateResponseSchema, CheckoutStatusSchema } from './schemas/checkout.ts';
import { FeedbackSuccessSchema } from './schemas/feedback.ts';
import { PricingSchema } from './schemas/pricing.ts';
import { RoadmapListSchema, VoteResponseSchema } from './schemas/roadmap.ts';
import { VersionSchema } from './schemas/version.ts';
import {
  ChangelogBeforeSchema,
  ChangelogFeedSchema,
  ChangelogInstalledSchema,
  ChangelogSinceSchema,
  IfModifiedSinceSchema,
  IfNoneMatchSchema,
} from './schemas/changelog.ts';
import { UnsubscribedSchema, UnsubscribeTokenSchema } from './schemas/unsubscribe.ts';

export const getPricingEndpoint = {
  operationId: 'getPricing',
  method: 'GET',
  path: '/pricing',
  versioned: true,
  tag: 'Offer',
  summary: 'Get the live offer',
  description: 'Prices, payment links and the trial file limit, as used by the website and the desktop app.',
  success: { status: 200, description: 'The live offer.', schema: PricingSchema, schemaName: 'Pricing' },
  errors: [],
} as const satisfies Endpoint;

export const downloadInstallerEndpoint = {
  operationId: 'downloadInstaller',
  method: 'GET',
  path: '/download',
  versioned: true,
  tag: 'Desktop app',
  summary: 'Redirect to the Windows installer',
  description: 'Redirects to the current MSI installer. A client that is not Windows (by the Sec-CH-UA-Platform ' +
    'client hint, else the User-Agent) is redirected to a Windows-only warning page instead, unless ' +
    'force=1. The target is always an operator-configured URL. Signed (RFC 9421) when the server signs answers; a ' +
    'redirect to the MSI names its release in Release-Version, which the app compares with the version GET /version offered.',
  query: [
    { name: 'source', required: false, schema: DownloadSourceSchema },
    { name: 'force', required: false, schema: DownloadForceSchema },
  ],
  success: {
    status: 302,
    description: 'Redirect to the installer or to the Windows-only warning page.',
    headers: [
      'Location',
      'Cache-Control',
      'Vary',
      'Signature-Input',
      'Signature',
      'Release-Version',
      'Installer-Digest',
      'Installer-Size',
      'Release-Notes',
      'Release-Critical',
    ],
  },
  errors: ['invalid_parameter'],
} as const satisfies Endpoint;

export const getVersionEndpoint = {
  operationId: 'getVersion',
  method: 'GET',
  path: '/version',
  versioned: true,
  tag: 'Desktop app',
  summary: 'Get the latest desktop version',
  description: 'The latest desktop version and the MSI download URL, for in-app update checks.',
  success: {
    status: 200,
    description: 'The latest version. Signed (RFC 9421) when the server signs answers: see Signature-Input.',
    schema: VersionSchema,
    schemaName: 'Version',
    extraHeaders: ['Content-Digest', 'Signature-Input', 'Signature', 'Installer-Digest', 'Installer-Size', 'Release-Notes', 'Release-Critical'],
  },
  errors: [],
} as const satisfies Endpoint;

export const reportInstallEndpoint = {
  operationId: 'reportInstall',
  method: 'POST',
  path: '/installs',
  versioned: true,
  tag: 'Desktop app',
  summary: 'Say once a day which version an app on the update files runs',
  description: 'An addition to the spec. An app that updates from the update files (/updates/{channel}/) never calls GET /version, ' +
    'so it says here, at most once a day, which version it runs, with its install id: the installed base and the halt rule ' +
    'count it by install id (one install per install id, version and UTC day; at most 10 install ids of one address a version ' +
    'and day), never mixed with the update checks counted by address. 204 whether or not it counted: a version that is no ' +
    'live release (nor the baseline), or a repeat of the day, counts nothing. An unknown channel is 404 not_found. Fields not listed are ignored.',
  body: { schema: InstallPingRequestSchema, schemaName: 'InstallPingRequest', required: true },
  success: { status: 204, description: 'Received; nothing is answered.' },
  errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'not_found'],
} as const satisfies Endpoint;

export const submitFeedbackEndpoint = {
  operationId: 'submitFeedback',
  method: 'POST',
  path: '/feedback',
  versioned: true,
  tag: 'Feedback',
  summary: 'Submit feedback or a review',
  description: 'Accepts feature requests, bug reports, general feedback and reviews. Only description is required; ' +
    'type defaults to general. Fields not listed are ignored.',
  body: { schema: FeedbackRequestSchema, schemaName: 'FeedbackRequest', required: true },
  success: {
    status: 201,
    description: 'The feedback was stored.',
    schema: FeedbackSuccessSchema,
    schemaName: 'FeedbackSuccess',
  },
  errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'description_required', 'too_much_feedback', 'budget_exhausted', 'storage_full'],
} as const satisfies Endpoint;

export const listRoadmapEndpoint = {
  operationId: 'listRoadmap',
  method: 'GET',
  path: '/roadmap',
  versioned: true,
  tag: 'Roadmap',
  summary: 'List the public roadmap',
  description: 'The visible features with their vote counts; voted tells whether the caller IP has voted.',
  success: { status: 200, description: 'The visible features.', schema: RoadmapListSchema, schemaName: 'RoadmapList' },
  errors: [],
} as const satisfies Endpoint;

export const toggleRoadmapVoteEndpoint = {
  operationId: 'toggleRoadmapVote',
  method: 'POST',
  path: '/roadmap',
  versioned: true,
  tag: 'Roadmap',
  summary: 'Toggle the caller vote for a feature',
  description: 'A first vote from the caller IP sets voted to true; the same request again removes it. IPv6 callers ' +
    'are recognised by their /64 prefix, and vote_count counts at most 8 votes from the /64s of one IPv6 /48.',
  body: { schema: VoteRequestSchema, schemaName: 'VoteRequest', required: true },
  success: { status: 200, description: 'The vote after the toggle.', schema: VoteResponseSchema, schemaName: 'VoteResponse' },
  errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'feature_not_found', 'storage_full'],
} as const satisfies Endpoint;

export const createCheckoutEndpoint = {
  operationId: 'createCheckout',
  method: 'POST',
  path: '/checkout/create',
  versioned: true,
  tag: 'Checkout',
  summary: 'Create a hosted checkout session',
  description: 'Creates a hosted checkout session for the standard product, the Plus add-on or the Plus bundle. ' +
    'Without a body it buys the standard product and records no channel.',
  body: { schema: CheckoutCreateRequestSchema, schemaName: 'CheckoutCreateRequest', required: false },
  success: {
    status: 200,
    description: 'The session and its hosted checkout address.',
    schema: CheckoutCreateResponseSchema,
    schemaName: 'CheckoutCreateResponse',
  },
  errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'too_many_checkouts', 'budget_exhausted', 'storage_full'],
} as const satisfies Endpoint;

export const getCheckoutStatusEndpoint = {
  operationId: 'getCheckoutStatus',
  method: 'GET',
  path: '/checkout/status',
  versioned: true,
  tag: 'Checkout',
  summary: 'Get the payment and license status of a checkout session',
  description: 'The payment status (pending, processing, paid). License keys are issued once, when the session is ' +
    'paid, and are null before.',
  query: [{ name: 'session_id', required: true, schema: SessionIdSchema }],
  success: { status: 200, description: 'The session status.', schema: CheckoutStatusSchema, schemaName: 'CheckoutStatus' },
  errors: ['invalid_request', 'unknown_session', 'session_expired', 'payment_failed', 'storage_full'],
} as const satisfies Endpoint;

export const validateLicenseEndpoint = {
  operationId: 'validateLicense',
  method: 'POST',
  path: '/licenses/validate',
  versioned: true,
  tag: 'Licenses',
  summary: 'Re-check the standing of a license key',
  description: 'An addition to the spec. Whether a key still stands: valid (with its product and the end of its lease), ' +
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

export const resendLicensesEndpoint = {
  operationId: 'resendLicenses',
  method: 'POST',
  path: '/licenses/resend',
  versioned: true,
  tag: 'Licenses',
  summary: 'Mail the license keys of an address to that address',
  description: 'An addition to the spec. Mails the valid (not revoked) license keys bought with this email address to that address only. ' +
    'Always 202 with the same body, whether or not the address has orders, so it tells nobody who bought. ' +
    'At most 5 requests per client per hour (429 too_many_resends), and at most 3 mails per address per ' +
    'day (further requests are answered alike and mail nothing).',
  body: { schema: LicenseResendRequestSchema, schemaName: 'LicenseResendRequest', required: true },
  success: {
    status: 202,
    description: 'Accepted: the same answer for every address.',
    schema: LicenseResendAcceptedSchema,
    schemaName: 'LicenseResendAccepted',
  },
  errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'too_many_resends'],
} as const satisfies Endpoint;

export const getChangelogEndpoint = {
  operationId: 'getChangelog',
  method: 'GET',
  path: '/changelog',
  versioned: true,
  tag: 'Changelog',
  summary: 'Get the changelog as a JSON Feed',
  description: 'An addition to the spec. A JSON Feed 1.1 (application/feed+json) of the releases live for every client ' +
    '(100 %, not pulled), highest version first: when each reached everyone, its notes address, whether it is ' +
    'critical, and the roadmap items it shipped (in the _release extension). since=<version> gives only the ' +
    'releases above it: the desktop app\'s "What\'s new" after an update. installed=<version> adds the releases at or below it ' +
    'that are not yet at 100 % (above the newest live for everyone), their reached_everyone_at null: "What\'s new" for an app ' +
    'that got a staged release early. At most 50 items a page: next_url names the next page (the same since and installed, ' +
    "before=<the last item's version>). since, before and installed are normalised onto the releases (since and installed to " +
    'the highest at or below it, before to the lowest at or above it), so values between two releases answer alike. Cacheable: ETag, Last-Modified, 304 on ' +
    'If-None-Match or If-Modified-Since, Cache-Control public with a short max age. An If-None-Match that is not * or ' +
    'a list of entity-tags (RFC 9110) is 400 invalid_parameter; an If-Modified-Since that is not an HTTP-date is ignored.',
  query: [
    { name: 'since', required: false, schema: ChangelogSinceSchema },
    { name: 'before', required: false, schema: ChangelogBeforeSchema },
    { name: 'installed', required: false, schema: ChangelogInstalledSchema },
  ],
  headers: [
    { name: 'If-None-Match', required: false, schema: IfNoneMatchSchema },
    { name: 'If-Modified-Since', required: false, schema: IfModifiedSinceSchema },
  ],
  success: {
    status: 200,
    description: 'The changelog as a JSON Feed 1.1.',
    schema: ChangelogFeedSchema,
    schemaName: 'ChangelogFeed',
    mediaType: 'application/feed+json',
    extraHeaders: ['ETag', 'Last-Modified'],
  },
  cacheable: { maxAgeSeconds: 300 },
  errors: ['invalid_parameter'],
} as const satisfies Endpoint;

export const getChangelogAtomEndpoint = {
  operationId: 'getChangelogAtom',
  method: 'GET',
  path: '/changelog.atom',
  versioned: true,
  tag: 'Changelog',
  summary: 'Get the changelog as an Atom feed',
  description: 'An addition to the spec. The same releases as GET /changelog, as an Atom feed (RFC 4287, ' +
    'application/atom+xml), for feed readers and websites; since, before and installed as there, 50 entries a page, and a ' +
    'link rel="next" (RFC 5005) to the next page when there is one. Cacheable likewise.',
  query: [
    { name: 'since', required: false, schema: ChangelogSinceSchema },
    { name: 'before', required: false, schema: ChangelogBeforeSchema },
    { name: 'installed', required: false, schema: ChangelogInstalledSchema },
  ],
  headers: [
    { name: 'If-None-Match', required: false, schema: IfNoneMatchSchema },
    { name: 'If-Modified-Since', required: false, schema: IfModifiedSinceSchema },
  ],
  success: { status: 200, description: 'The changelog as Atom.', mediaType: 'application/atom+xml', freeForm: true, extraHeaders: ['ETag', 'Last-Modified'] },
  cacheable: { maxAgeSeconds: 300 },
  errors: ['invalid_parameter'],
} as const satisfies Endpoint;

export const unsubscribeEndpoint = {
  operationId: 'unsubscribe',
  method: 'POST',
  path: '/unsubscribe',
  versioned: true,
  tag: 'Mail',
  summary: 'Stop the shipped-request mails to an address (one click)',
  description: 'An addition to the spec. The List-Unsubscribe address of a mail telling a requester that their request shipped ' +
    '(RFC 8058 one-click: the body, List-Unsubscribe=One-Click, is not needed). Stops every such mail to the ' +
    'address of the token, for good; a repeat answers the same. JSON, or a page when the request accepts text/html. ' +
    'A token of the right shape that this server did not make is 404 token_not_found: no such address exists.',
  query: [{ name: 'token', required: true, schema: UnsubscribeTokenSchema }],
  success: { status: 200, description: 'The address gets no more of these mails.', schema: UnsubscribedSchema, schemaName: 'Unsubscribed' },
  errors: ['invalid_parameter', 'token_not_found'],
} as const satisfies Endpoint;

export const getUnsubscribePageEndpoint = {
  operationId: 'getUnsubscribePage',
  method: 'GET',
  path: '/unsubscribe',
  versioned: true,
  tag: 'Mail',
  summary: 'The page of an unsubscribe address, with its button',
  description: 'An addition to the spec. What a person who opens the unsubscribe address of a shipped-request mail sees: ' +
    'the address and a button that POSTs to it. A GET changes nothing (link checkers fetch links). A token of the right ' +
    'shape that this server did not make is 404 token_not_found, as for the POST.',
  query: [{ name: 'token', required: true, schema: UnsubscribeTokenSchema }],
  success: { status: 200, description: 'The page.', mediaType: 'text/html', freeForm: true },
  errors: ['invalid_parameter', 'token_not_found'],
} as const satisfies Endpoint;

export const getLlmsTxtEndpoint = {
  operationId: 'getLlmsTxt',
  method: 'GET',
  path: '/llms.txt',
  versioned: false,
  tag: 'Discovery',
  summary: 'Get the plain-text summary for automated agents',
  description: 'A product summary in the llms.txt format, with links to every endpoint and the docs.',
  success: { status: 200, description: 'The summary.', mediaType: 'text/plain', freeForm: true },
  errors: [],
} as const satisfies Endpoint;

export const getOpenApiEndpoint = {
  operationId: 'getOpenApi',
  method: 'GET',
  path: '/openapi.json',
  versioned: false,
  tag: 'Discovery',
  summary: 'Get the OpenAPI description of this API',
  description: 'The OpenAPI 3.1 description of these public endpoints, interface version 1.0.0.',
  success: { status: 200, description: 'The OpenAPI document.', mediaType: 'application/json', freeForm: true },
  errors: [],
} as const satisfies Endpoint;

/** Every public endpoint, in order: each row above, listed once. */
export const PUBLIC_ENDPOINTS = [
  getPricingEndpoint,
  downloadInstallerEndpoint,
  getVersionEndpoint,
  reportInstallEndpoint,
  submitFeedbackEndpoint,
  listRoadmapEndpoint,
  toggleRoadmapVoteEndpoint,
  createCheckoutEndpoint,
  getCheckoutStatusEndpoint,
  validateLicenseEndpoint,
  resendLicensesEndpoint,
  getChangelogEndpoint,
  getChangelogAtomEndpoint,
  unsubscribeEndpoint,
  getUnsubscribePageEndpoint,
  getLlmsTxtEndpoint,
  getOpenApiEndpoint,
] as const;

/** Any public endpoint. */
export type PublicEndpoint = (typeof PUBLIC_ENDPOINTS)[number];
