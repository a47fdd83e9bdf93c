/**
 * Request schemas: the single source of request validation and of the request side of /openapi.json.
 *
 * @module
 */
import * as v from 'valibot';
import { CHECKOUT_CHANNELS, CHECKOUT_SKUS, type CheckoutChannel, type CheckoutSku, FEEDBACK_TYPES, type FeedbackType } from './catalogue.ts';
import type { Assert, Equal } from './exact.ts';
import { isNotBlank, NOT_BLANK_NO_CONTROL_CHARACTERS, storableText } from './stored-text.ts';
import { RELEASE_VERSION } from './version.ts';
import { CHANNEL_NAME, INSTALL_ID } from './update-names.ts';

/** Longest feedback description, in UTF-16 code units. */
export const DESCRIPTION_MAX = 5000;
/** Longest value of any other free-text field. */
export const SHORT_TEXT_MAX = 200;

// The helpers below are marked side-effect free, so that a bundler drops the schemas a page does not use.
/* @__NO_SIDE_EFFECTS__ */
function text(max: number) {
  return v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters long`), ...storableText());
}

/** An integer from min to max; the message names the range for each way a value can miss it. */
/* @__NO_SIDE_EFFECTS__ */
function integer(min: number, max: number, message: string, maxMessage = message) {
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, maxMessage));
}

/** Feedback or a review (POST /api/v1/feedback). */
export interface FeedbackRequest {
  /** What the user wants to tell us: 1 to 5000 characters. */
  description: string;
  /** Kind of feedback; general when omitted. */
  type?: FeedbackType | undefined;
  email?: string | undefined;
  appVersion?: string | undefined;
  /** An integer from 1 to 5. */
  rating?: number | undefined;
  /** An addition to the spec: the install id of an app on the update files, so that its bug report counts by install id. */
  installId?: string | undefined;
}

/* @__NO_SIDE_EFFECTS__ */
function installId(description: string) {
  return v.pipe(
    v.string('must be a string'),
    v.regex(INSTALL_ID, 'must be an install id: 16 bytes in base64url without padding (22 characters of A-Z a-z 0-9 - _)'),
    v.description(description),
  );
}

/** One of the values, with a message that lists them. */
/* @__NO_SIDE_EFFECTS__ */
function oneOf<const T extends readonly string[]>(values: T) {
  return v.picklist(values, `must be one of ${values.join(', ')}`);
}

/** POST /api/v1/feedback. Unknown fields are ignored: the spec does not forbid them here. */
const feedbackRequest = v.object({
  description: v.pipe(
    v.string('must be a string'),
    v.maxLength(DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters long`),
    v.minLength(1, 'must not be empty'),
    v.check(isNotBlank, 'must not be blank'),
    ...storableText(NOT_BLANK_NO_CONTROL_CHARACTERS),
    v.description('What the user wants to tell us; at least one character that is not white space.'),
  ),
  type: v.optional(
    v.pipe(
      oneOf(FEEDBACK_TYPES),
      v.description('Kind of feedback; general when omitted.'),
    ),
  ),
  // RFC 5322's dot-atom (so o'brien@ and a&b@) at any domain name, single-label and IDNA ones included.
  email: v.optional(v.pipe(text(SHORT_TEXT_MAX), v.rfcEmail('must be an email address'))),
  appVersion: v.optional(text(SHORT_TEXT_MAX)),
  rating: v.optional(integer(1, 5, 'must be an integer from 1 to 5')),
  installId: v.optional(
    installId(
      'An addition to the spec: the install id of an app on the update files (POST /api/v1/installs). A bug_report that ' +
        'carries it counts for the halt rule by install id; it is not stored with the feedback.',
    ),
  ),
});
type _FeedbackRequest = Assert<Equal<v.InferInput<typeof feedbackRequest>, FeedbackRequest>>;
export const FeedbackRequestSchema: v.GenericSchema<FeedbackRequest> = feedbackRequest;

/** An app on the update files says which version it runs (POST /api/v1/installs, an addition to the spec). */
export interface InstallPingRequest {
  /** The update channel it reads, such as stable. */
  channel: string;
  /** The version it runs, as releases are published (major.minor.build). */
  version: string;
  /** Its install id: 16 random bytes in base64url without padding. */
  installId: string;
}
const installPingRequest = v.object({
  channel: v.pipe(
    v.string('must be a string'),
    v.regex(CHANNEL_NAME, 'must be a channel name: 1 to 32 of a-z, 0-9 and -'),
    v.description('The update channel the app reads (/updates/{channel}/), such as stable. An unknown channel is 404 not_found.'),
  ),
  version: v.pipe(
    v.string('must be a string'),
    v.regex(RELEASE_VERSION, 'must be a release version: major.minor.build such as 2.5.0, with an optional fourth field, no leading zeros'),
    v.description('The version the app runs. One that is no live release (nor the baseline) is answered 204 and counts nothing.'),
  ),
  installId: installId('The install id the app keeps: 16 random bytes in base64url without padding (22 characters).'),
});
type _InstallPingRequest = Assert<Equal<v.InferInput<typeof installPingRequest>, InstallPingRequest>>;
/** POST /api/v1/installs. Fields not listed are ignored. */
export const InstallPingRequestSchema: v.GenericSchema<InstallPingRequest> = installPingRequest;

/** Toggle the caller's vote for a feature (POST /api/v1/roadmap). */
export interface VoteRequest {
  /** The id of a visible feature of GET /api/v1/roadmap. */
  featureId: number;
}
const voteRequest = v.strictObject({
  featureId: integer(1, 2147483647, 'must be an integer of at least 1', 'must be at most 2147483647'),
});
type _VoteRequest = Assert<Equal<v.InferInput<typeof voteRequest>, VoteRequest>>;
/** POST /api/v1/roadmap: toggle the caller's vote. */
export const VoteRequestSchema: v.GenericSchema<VoteRequest> = voteRequest;

/** What to buy (POST /api/v1/checkout/create); the whole body is optional. */
export interface CheckoutCreateRequest {
  /** Desktop checkout SKU; standard when omitted. */
  product?: CheckoutSku | undefined;
  /** Install channel, kept for fulfilment analytics. */
  channel?: CheckoutChannel | undefined;
}
const checkoutCreateRequest = v.strictObject({
  product: v.optional(
    v.pipe(
      oneOf(CHECKOUT_SKUS),
      v.description('Desktop checkout SKU; standard when omitted.'),
    ),
  ),
  channel: v.optional(
    v.pipe(
      oneOf(CHECKOUT_CHANNELS),
      v.description('Install channel, kept for fulfilment analytics; absent when omitted.'),
    ),
  ),
});
type _CheckoutCreateRequest = Assert<Equal<v.InferInput<typeof checkoutCreateRequest>, CheckoutCreateRequest>>;
/** POST /api/v1/checkout/create. The whole body is optional. */
export const CheckoutCreateRequestSchema: v.GenericSchema<CheckoutCreateRequest> = checkoutCreateRequest;

/**
 * GET /api/v1/download?source=: an analytics label such as a page or channel name. Its alphabet is a
 * subset of `NO_CONTROL_CHARACTERS` (and one pattern is all /openapi.json can say of a string).
 */
export const DownloadSourceSchema: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.regex(/^[A-Za-z0-9._-]{0,64}$/, 'must be at most 64 characters of A-Z, a-z, 0-9, ".", "_" or "-"'),
  v.description('Analytics label, e.g. a page or channel name: up to 64 characters of A-Z a-z 0-9 . _ -. Empty counts as absent.'),
);

/** GET /api/v1/download?force=1: skip the Windows-only warning page. */
export const DownloadForceSchema: v.GenericSchema<'1'> = v.pipe(
  v.literal('1'),
  v.description('Only "1": redirect to the installer even for a client that is not Windows.'),
);

/** The longest session id accepted in a query, far above any provider's. */
const SESSION_ID_MAX = 255;

const SESSION_ID_REQUIRED = `is required: a non-empty id of at most ${SESSION_ID_MAX} characters`;

/** GET /api/v1/checkout/status?session_id=. */
export const SessionIdSchema: v.GenericSchema<string> = v.pipe(
  v.string(SESSION_ID_REQUIRED),
  v.minLength(1, SESSION_ID_REQUIRED),
  v.maxLength(SESSION_ID_MAX, SESSION_ID_REQUIRED),
  ...storableText(),
  v.description('The sessionId returned by POST /api/v1/checkout/create.'),
);
