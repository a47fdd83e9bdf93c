/**
 * The public interface in one table: every operation, its path, its schemas and its error codes. The
 * router and /openapi.json are both built from it, so they cannot disagree.
 *
 * @module
 */
import type * as v from 'valibot';
import type { AppContext, Operation } from './context.ts';
import type { ErrorCode } from './errors.ts';
import { checkoutStatus, createCheckout } from './operations/checkout.ts';
import { download } from './operations/download.ts';
import { feedback } from './operations/feedback.ts';
import { gatewayWebhook } from './operations/gateway-webhook.ts';
import { pricing } from './operations/pricing.ts';
import { listRoadmap, toggleVote } from './operations/roadmap.ts';
import { version } from './operations/version.ts';
import {
  CheckoutCreateRequestSchema,
  DownloadForceSchema,
  DownloadSourceSchema,
  FeedbackRequestSchema,
  SessionIdSchema,
  VoteRequestSchema,
} from './schemas/requests.ts';
import {
  CheckoutCreateResponseSchema,
  CheckoutStatusSchema,
  FeedbackSuccessSchema,
  PricingSchema,
  RoadmapListSchema,
  VersionSchema,
  VoteResponseSchema,
} from './schemas/responses.ts';
import { GatewayEventSchema, SignatureHeaderSchema, WebhookAckSchema } from './schemas/webhook.ts';

/** A documented query parameter. */
export interface QueryParameter {
  name: string;
  required: boolean;
  schema: v.GenericSchema;
}

/** How a successful answer looks. */
export type SuccessResponse =
  | { status: 200 | 201; description: string; schema: v.GenericSchema; schemaName: string }
  | { status: 200; description: string; mediaType: 'text/plain' | 'application/json'; freeForm: true }
  | { status: 302; description: string; headers: readonly string[] };

/** One public operation as it is routed and documented. */
export interface ApiRoute {
  operationId: string;
  method: 'GET' | 'POST';
  /** The path; for a versioned route, the part after /api/v1 (the /api alias shares it). */
  path: string;
  /** Whether the route lives under /api/v1 with an unversioned /api alias. */
  versioned: boolean;
  tag: string;
  summary: string;
  description: string;
  query?: readonly QueryParameter[];
  /** Documented request headers. */
  headers?: readonly QueryParameter[];
  body?: { schema: v.GenericSchema; schemaName: string; required: boolean };
  success: SuccessResponse;
  /** The error codes this operation answers with, besides rate_limited and internal_error (always possible). */
  errors: readonly ErrorCode[];
  create: (context: AppContext) => Operation;
}

/** The tag of the routes called by the payment provider, never by the website or the desktop app. */
export const OPERATOR_TAG = 'Operator';

/** The codes every route can answer with. */
export const COMMON_ERRORS: readonly ErrorCode[] = ['rate_limited', 'internal_error'];
/** The codes of reading a JSON body. */
const BODY_ERRORS: readonly ErrorCode[] = ['invalid_request', 'payload_too_large', 'unsupported_media_type'];

export const API_ROUTES: readonly ApiRoute[] = [
  {
    operationId: 'getPricing',
    method: 'GET',
    path: '/pricing',
    versioned: true,
    tag: 'Offer',
    summary: 'Get the live offer',
    description: 'Prices, payment links and the trial file limit, as used by the website and the desktop app.',
    success: { status: 200, description: 'The live offer.', schema: PricingSchema, schemaName: 'Pricing' },
    errors: [],
    create: pricing,
  },
  {
    operationId: 'downloadInstaller',
    method: 'GET',
    path: '/download',
    versioned: true,
    tag: 'Desktop app',
    summary: 'Redirect to the Windows installer',
    description:
      'Redirects to the current MSI installer. A client that is not Windows (by the Sec-CH-UA-Platform ' +
      'client hint, else the User-Agent) is redirected to a Windows-only warning page instead, unless ' +
      'force=1. The target is always an operator-configured URL.',
    query: [
      { name: 'source', required: false, schema: DownloadSourceSchema },
      { name: 'force', required: false, schema: DownloadForceSchema },
    ],
    success: {
      status: 302,
      description: 'Redirect to the installer or to the Windows-only warning page.',
      headers: ['Location', 'Cache-Control', 'Vary'],
    },
    errors: ['invalid_parameter'],
    create: download,
  },
  {
    operationId: 'getVersion',
    method: 'GET',
    path: '/version',
    versioned: true,
    tag: 'Desktop app',
    summary: 'Get the latest desktop version',
    description: 'The latest desktop version and the MSI download URL, for in-app update checks.',
    success: { status: 200, description: 'The latest version.', schema: VersionSchema, schemaName: 'Version' },
    errors: [],
    create: version,
  },
  {
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
    errors: [...BODY_ERRORS, 'description_required', 'storage_full'],
    create: feedback,
  },
  {
    operationId: 'listRoadmap',
    method: 'GET',
    path: '/roadmap',
    versioned: true,
    tag: 'Roadmap',
    summary: 'List the public roadmap',
    description: 'The visible features with their vote counts; voted tells whether the caller IP has voted.',
    success: { status: 200, description: 'The visible features.', schema: RoadmapListSchema, schemaName: 'RoadmapList' },
    errors: [],
    create: listRoadmap,
  },
  {
    operationId: 'toggleRoadmapVote',
    method: 'POST',
    path: '/roadmap',
    versioned: true,
    tag: 'Roadmap',
    summary: 'Toggle the caller vote for a feature',
    description:
      'A first vote from the caller IP sets voted to true; the same request again removes it. IPv6 callers ' +
      'are recognised by their /64 prefix.',
    body: { schema: VoteRequestSchema, schemaName: 'VoteRequest', required: true },
    success: { status: 200, description: 'The vote after the toggle.', schema: VoteResponseSchema, schemaName: 'VoteResponse' },
    errors: [...BODY_ERRORS, 'feature_not_found', 'storage_full'],
    create: toggleVote,
  },
  {
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
    errors: [...BODY_ERRORS, 'storage_full'],
    create: createCheckout,
  },
  {
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
    errors: ['invalid_request', 'unknown_session', 'session_expired', 'payment_failed'],
    create: checkoutStatus,
  },
  {
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
    create: gatewayWebhook,
  },
];

/** The versioned prefix and the compatibility prefix of every versioned route. */
export const V1_PREFIX = '/api/v1';
export const ALIAS_PREFIX = '/api';
