/**
 * The operator API's own error codes: the same {code, message, resolution} body as the public ones, in a
 * catalogue of their own, so the public error list (and /openapi.json) does not change.
 *
 * @module
 */
import { AnsweringError, type ErrorBody } from '../http/errors.ts';
import { type CoreResponse, encodeJson, JSON_TYPE } from '../http/http.ts';

export const OPERATOR_ERRORS = {
  unauthorized: {
    status: 401,
    when: 'No bearer token, or not in the form "Authorization: Bearer <token>".',
    resolution: 'Send an operator token (OPERATOR_TOKEN, or one of OPERATOR_TOKENS) as "Authorization: Bearer <token>".',
  },
  forbidden: {
    status: 403,
    when: 'A bearer token that is none of the operator tokens.',
    resolution: 'Use a token this server was started with (OPERATOR_TOKEN, or your own in OPERATOR_TOKENS).',
  },
  too_many_failures: {
    status: 429,
    when:
      'A wrong or missing token past the cap: 10 refused tokens from this address, or 100 from all addresses, within a minute. The right token is still accepted.',
    resolution: 'Send the right token (it is always accepted), or wait for the seconds in Retry-After.',
  },
  release_exists: {
    status: 409,
    when: 'A release of this version was published before (a pulled version stays pulled).',
    resolution: 'Publish a new version number, or widen the existing release.',
  },
  release_not_higher: {
    status: 409,
    when: 'The version is lower than the highest one its channel lists (pulled ones included): every client it reached would be downgraded.',
    resolution:
      'Publish a version above the highest one GET /releases lists on that channel and the more stable ones; a typo in the version is the usual cause.',
  },
  release_same_msi_version: {
    status: 409,
    when: 'The version differs from a published one only in the fourth field, which Windows Installer ignores: it would not install it as an upgrade.',
    resolution: 'Raise major.minor.build (e.g. 2.6.3 instead of 2.6.2.1).',
  },
  release_not_live: {
    status: 409,
    when: "A roadmap feature's release_version names a pulled release, or a version above the baseline that is not a live release.",
    resolution: 'Name a live release (GET /releases) or a version up to the baseline, or publish the release first; null when not shipped.',
  },
  release_pulled: {
    status: 409,
    when: 'The release is pulled: a rollout change would reach no client.',
    resolution: 'Restore it first (POST /releases/{version}/restore), or publish a new version.',
  },
  release_not_halted: {
    status: 409,
    when: 'The release is not halted by the halt rule (no ramp plan, never halted, resumed already, or pulled).',
    resolution: 'List the releases with GET /releases: only one with haltedAt set can be resumed.',
  },
  invalid_query: {
    status: 400,
    when: 'A query parameter is given more than once, or the query has a malformed percent escape (%zz, bytes that are no UTF-8) or a NUL character (%00).',
    resolution: 'Give each query parameter once, percent-encoded as UTF-8 without NUL characters; the operator /openapi.json lists them.',
  },
  invalid_path: {
    status: 400,
    when: 'A path parameter has a malformed percent escape (%zz, bytes that are no UTF-8) or a NUL character (%00).',
    resolution: 'Percent-encode the path parameter as UTF-8 (a version such as 2.6.0, a session id) without NUL characters.',
  },
  feedback_not_found: {
    status: 404,
    when: 'No stored feedback has this id.',
    resolution: 'List the inbox with GET /feedback and use one of its ids.',
  },
  release_not_found: {
    status: 404,
    when: 'No release of this version was published.',
    resolution: 'List the releases with GET /releases and use one of their versions.',
  },
  feature_not_found: {
    status: 404,
    when: 'No roadmap feature has this id.',
    resolution: 'List the features with GET /roadmap and use one of their ids.',
  },
  feature_already_merged: {
    status: 409,
    when: 'The feature was merged into another before; its votes moved there.',
    resolution: 'Merge the feature it was merged into instead, or show it again first (PATCH with visible: true).',
  },
  feature_not_merged: {
    status: 409,
    when: 'The feature is not merged into another (never merged, unmerged already, or shown again by an edit): there is no merge to undo.',
    resolution: 'List the features with GET /roadmap: only one with merged_into set can be unmerged.',
  },
  merge_not_recorded: {
    status: 409,
    when: "The feature was merged before this server recorded which votes a merge moves (migration 29): its votes cannot be told apart from the target's.",
    resolution: 'Show it again with PATCH /roadmap/{id} {"visible": true}; its voters vote for it again themselves. Merges made since can be undone.',
  },
  unmerge_target_merged: {
    status: 409,
    when: 'The feature it was merged into has been merged into a third one since: the votes to move back are there now.',
    resolution: 'Unmerge the feature it was merged into first (POST /roadmap/{merged_into}/unmerge), then this one.',
  },
  merge_target_hidden: {
    status: 409,
    when: 'The feature to merge into is hidden, so its votes could be neither seen nor cast.',
    resolution: 'Show the target first (PATCH /roadmap/{id} with {"visible": true}), or merge into a visible feature.',
  },
  merge_into_itself: {
    status: 400,
    when: 'A feature cannot be merged into itself.',
    resolution: 'Give the id of the other feature, the one that stays, as "into".',
  },
  webhook_address_refused: {
    status: 400,
    when: 'The endpoint URL is, or resolves to, a loopback, private, link-local or reserved address, or a listener of this server.',
    resolution: "Give the receiver's public address; for a receiver on your own network, allow its range in WEBHOOK_ALLOW_NETWORKS.",
  },
  endpoint_not_found: {
    status: 404,
    when: 'No webhook endpoint has this id.',
    resolution: 'List the endpoints with GET /webhooks and use one of their ids.',
  },
  endpoint_disabled: {
    status: 409,
    when: 'The webhook endpoint is disabled: a test event would wait, unsent, until it is enabled.',
    resolution: 'Enable it first (PATCH /webhooks/{id} with {"enabled": true}), then send the test.',
  },
  mail_not_found: {
    status: 404,
    when: 'No mail has this id.',
    resolution: "List the failed mails with GET /mails?state=failed (or an order's with GET /orders/{session}/mails) and use one of their ids.",
  },
  mail_not_failed: {
    status: 409,
    when: 'The mail is not failed: it is sent, or still pending (its retries go on by themselves).',
    resolution: 'Only a failed mail is sent again; a pending one is tried again at its nextAttemptAt.',
  },
  mail_retried_recently: {
    status: 409,
    when: 'The mail was sent again less than an hour ago (each failed mail at most once an hour, so a relay that refuses it is not hammered).',
    resolution: 'Fix what the lastError says (the relay, the address), then send it again after the time the message names.',
  },
  delivery_not_found: {
    status: 404,
    when: 'No webhook delivery has this id.',
    resolution: 'List the deliveries with GET /webhooks/deliveries and use one of their ids.',
  },
  order_not_found: {
    status: 404,
    when: 'No checkout session has this id.',
    resolution: "Find the order with GET /orders?email=<the buyer's email> and use its session.",
  },
  order_not_paid: {
    status: 409,
    when: 'The checkout session is not paid (pending, processing, expired or failed): it has no licenses to change.',
    resolution: 'Check the session with GET /orders/{session}; a payment not yet seen here may be found by POST /orders/reconcile.',
  },
  order_without_email: {
    status: 409,
    when:
      'The payment provider gave no email address for the order, or one that is not exactly one address (a list, a name with brackets): there is nobody to mail its keys to.',
    resolution: 'Give the buyer the keys GET /orders/{session} shows by another way.',
  },
  order_revoked: {
    status: 409,
    when: "The order's licenses are revoked (a refund, a dispute, or an operator): no Plus key is issued for it, and its keys are not mailed.",
    resolution: 'Reinstate the order first (POST /orders/{session}/reinstate) if it should hold licenses.',
  },
  license_not_found: {
    status: 404,
    when: 'No license key matches: no paid order holds the key, has the email, or is the session with keys.',
    resolution:
      "Find the order with GET /orders?email=<the buyer's email>; a key is matched as issued (any case for version 2, spaces and line breaks ignored).",
  },
  reconcile_unavailable: {
    status: 501,
    when: 'The payment gateway of this server cannot list the sessions it has as paid.',
    resolution: 'Reconcile with a gateway that lists its sessions (Stripe, the simulator).',
  },
  channel_not_found: {
    status: 404,
    when: 'No release channel has this name: the channels are stable, beta and those the config file names (updates.channels).',
    resolution: 'Name a channel GET /releases lists in `channels`, such as stable or beta.',
  },
  channel_not_more_stable: {
    status: 409,
    when: 'A promotion moves a release to a more stable channel only; this one is not more stable than the channel the release is on.',
    resolution: 'Promote towards stable (GET /releases lists the channels, the most stable first); to stop serving a release, pull it.',
  },
  invalid_root: {
    status: 400,
    when:
      "The root file is not one a TUF 1.0 client would walk to from the channel's newest root: its shape, keys, version (the newest's plus one, or 1), expiry or signatures; the message says which.",
    resolution: 'Sign the root again with `converter-site-api updates sign-root` (a rotation with --previous-key too), as the message says.',
  },
  root_version_exists: {
    status: 409,
    when: 'A root of this version was stored for the channel by another request at the same time: a version is stored once.',
    resolution: 'Read the channel with GET /update-files/{channel} and sign the next version.',
  },
  root_online_key_unknown: {
    status: 409,
    when: "The root does not name this server's online key for timestamp, snapshot and targets, or the server has none: it could sign none of them.",
    resolution: 'Sign the root with `converter-site-api updates sign-root --online-key <hex>`, the key `converter-site-api updates status` prints.',
  },
} as const satisfies Record<string, { status: number; when: string; resolution: string }>;

export type OperatorErrorCode = keyof typeof OPERATOR_ERRORS;

/** An operator API error: thrown by an operation, answered by the pipeline. */
export class OperatorError extends AnsweringError {
  readonly code: OperatorErrorCode;
  readonly headers: Record<string, string>;

  constructor(code: OperatorErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'OperatorError';
    this.code = code;
    this.headers = headers;
  }

  get status(): number {
    return OPERATOR_ERRORS[this.code].status;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, resolution: OPERATOR_ERRORS[this.code].resolution };
  }

  toResponse(): CoreResponse {
    return { status: this.status, headers: { 'content-type': JSON_TYPE, ...this.headers }, body: encodeJson(this.toBody()) };
  }
}
