/**
 * What each operation of the interface is, apart from how the server answers it: operationId, method,
 * path, request and response schemas, error codes. `API_ROUTES` (api.ts) gives each its operation; the
 * typed client (client/) reads them, so a caller's types come from the schemas the server validates with.
 * One constant per operation, plain data, so that a bundler keeps only those a page uses.
 *
 * @module
 */
import {
  CheckoutCreateRequestSchema,
  DownloadForceSchema,
  DownloadSourceSchema,
  FeedbackRequestSchema,
  SessionIdSchema,
  VoteRequestSchema,
} from './schemas/requests.ts';
import { CheckoutCreateResponseSchema, CheckoutStatusSchema } from './schemas/checkout.ts';
import { FeedbackSuccessSchema } from './schemas/feedback.ts';
import { PricingSchema } from './schemas/pricing.ts';
import { RoadmapListSchema, VoteResponseSchema } from './schemas/roadmap.ts';
import { VersionSchema } from './schemas/version.ts';
import { GatewayEventSchema, SignatureHeaderSchema, WebhookAckSchema } from './schemas/webhook.ts';

export type { Endpoint, QueryParameter, SuccessResponse } from './endpoint.ts';
export { resendLicenses, validateLicense } from './license-endpoints.ts';
import type { Endpoint } from './endpoint.ts';

/** The versioned prefix and the compatibility prefix of every versioned route. */
export const V1_PREFIX = '/api/v1';
export const ALIAS_PREFIX = '/api';

/** The tag of the routes called by the payment provider, never by the website or the desktop app. */
export const OPERATOR_TAG = 'Operator';

export const getPricing = {
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

export const downloadInstaller = {
  operationId: 'downloadInstaller',
  method: 'GET',
  path: '/download',
  versioned: true,
  tag: 'Desktop app',
  summary: 'Redirect to the Windows installer',
  description:
    'Redirects to the current MSI installer. A client that is not Windows (by the Sec-CH-UA-Platform ' +
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
    headers: ['Location', 'Cache-Control', 'Vary', 'Signature-Input', 'Signature', 'Release-Version', 'Installer-Digest', 'Installer-Size', 'Release-Notes', 'Release-Critical'],
  },
  errors: ['invalid_parameter'],
} as const satisfies Endpoint;

export const getVersion = {
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

export const submitFeedback = {
  operationId: 'submitFeedback',
  method: 'POST',
  path: '/feedback',
  versioned: true,
  tag: 'Feedback',
  summary: 'Submit feedback or a review',
  description:
    'Accepts feature requests, bug reports, general feedback and reviews. Only description is required; ' +
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

export const listRoadmap = {
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

export const toggleRoadmapVote = {
  operationId: 'toggleRoadmapVote',
  method: 'POST',
  path: '/roadmap',
  versioned: true,
  tag: 'Roadmap',
  summary: 'Toggle the caller vote for a feature',
  description:
    'A first vote from the caller IP sets voted to true; the same request again removes it. IPv6 callers ' +
    'are recognised by their /64 prefix, and vote_count counts at most 8 votes from the /64s of one IPv6 /48.',
  body: { schema: VoteRequestSchema, schemaName: 'VoteRequest', required: true },
  success: { status: 200, description: 'The vote after the toggle.', schema: VoteResponseSchema, schemaName: 'VoteResponse' },
  errors: ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'feature_not_found', 'storage_full'],
} as const satisfies Endpoint;

export const createCheckout = {
  operationId: 'createCheckout',
  method: 'POST',
  path: '/checkout/create',
  versioned: true,
  tag: 'Checkout',
  summary: 'Create a hosted checkout session',
  description:
    'Creates a hosted checkout session for the standard product, the Plus add-on or the Plus bundle. ' +
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

export const getCheckoutStatus = {
  operationId: 'getCheckoutStatus',
  method: 'GET',
  path: '/checkout/status',
  versioned: true,
  tag: 'Checkout',
  summary: 'Get the payment and license status of a checkout session',
  description:
    'The payment status (pending, processing, paid). License keys are issued once, when the session is ' +
    'paid, and are null before.',
  query: [{ name: 'session_id', required: true, schema: SessionIdSchema }],
  success: { status: 200, description: 'The session status.', schema: CheckoutStatusSchema, schemaName: 'CheckoutStatus' },
  errors: ['invalid_request', 'unknown_session', 'session_expired', 'payment_failed', 'storage_full'],
} as const satisfies Endpoint;

export const receiveGatewayNotification = {
  operationId: 'receiveGatewayNotification',
  method: 'POST',
  path: '/webhooks/gateway',
  versioned: true,
  tag: OPERATOR_TAG,
  summary: 'Receive a payment provider notification (operator-facing)',
  description:
    'Called by the payment provider, never by the website or the desktop app. The signature header is ' +
    'verified over the raw body (Stripe: HMAC-SHA-256 of "<t>.<body>" with the endpoint secret, 300 s ' +
    'tolerance); anything unsigned is refused and changes nothing. A paid session gets its license keys ' +
    'here, once: a replayed event, or one racing a status poll, issues no second set.',
  headers: [{ name: 'Stripe-Signature', required: true, schema: SignatureHeaderSchema }],
  body: { schema: GatewayEventSchema, schemaName: 'GatewayEvent', required: true },
  success: { status: 200, description: 'The event was applied or ignored.', schema: WebhookAckSchema, schemaName: 'WebhookAck' },
  errors: ['invalid_request', 'invalid_signature', 'notifications_unavailable', 'payload_too_large'],
} as const satisfies Endpoint;

export const getLlmsTxt = {
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

export const getOpenApi = {
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
