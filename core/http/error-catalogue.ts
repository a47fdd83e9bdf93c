/**
 * The catalogue of the API's stable error codes: when each is answered, its HTTP status and the default
 * advice to the client. /openapi.json and docs/errors.md list it.
 *
 * @module
 */

/** Every error code the API answers with: when it happens, its HTTP status and the default advice to the client. */
export const ERROR_CATALOGUE = {
  invalid_request: {
    when: 'The JSON body or a query parameter is malformed, has a wrong type, an out-of-range value or an ' +
      'unknown field; the message names the field.',
    status: 400,
    resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
  },
  malformed_request: {
    when: 'The request is not valid HTTP/1.1 (a bad request line, header or chunk encoding, or no Host header).',
    status: 400,
    resolution: 'Send a well-formed HTTP/1.1 request; most HTTP client libraries do.',
  },
  invalid_parameter: {
    when: 'A download query parameter is invalid: force other than "1", or a source label over 64 characters ' +
      "or outside A-Z a-z 0-9 . _ -; or the changelog's since, before or installed is not a release version such as 2.5.0 (major.minor.build, an optional fourth field, no leading zeros); or an unsubscribe token is missing or not shaped like one (the base64url of an address, a dot, 22 base64url characters). Also when one of these is repeated, and when the changelog's If-None-Match header is neither * nor a list of entity-tags (RFC 9110 section 13.1.2); and when an update file's channel is not 1 to 32 of a-z, 0-9 and -.",
    status: 400,
    resolution: 'Fix the query parameter as the message says; /openapi.json describes the allowed values.',
  },
  description_required: {
    when: 'The feedback description is missing or blank.',
    status: 400,
    resolution: 'Send a non-empty "description" string in the JSON body.',
  },
  unknown_session: {
    when: 'No checkout session has this session_id.',
    status: 400,
    resolution: 'Use the sessionId returned by POST /api/v1/checkout/create, or create a new checkout session.',
  },
  session_expired: {
    when: 'The checkout session expired before it was paid.',
    status: 400,
    resolution: 'The checkout session expired before payment; create a new one with POST /api/v1/checkout/create.',
  },
  payment_failed: {
    when: 'The payment of the checkout session failed.',
    status: 400,
    resolution: 'The payment did not go through; create a new checkout session and pay with another method.',
  },
  invalid_signature: {
    when: 'A provider notification has a missing or malformed signature header, no signature that matches the ' +
      'raw body, or a signed time more than 300 seconds from the server time; nothing is changed.',
    status: 400,
    resolution: 'Only the payment provider may call this path: sign the raw body with the endpoint secret as the provider documents.',
  },
  not_found: {
    when: 'No API endpoint exists at the requested path, or an update channel, file version or target is not served; the message names it.',
    status: 404,
    resolution: 'See /openapi.json for the published endpoints.',
  },
  token_not_found: {
    when: 'An unsubscribe token is well-formed but no unsubscribe address of this server has it: it was not made by this ' +
      'server (or was made under another voter secret), or it was altered.',
    status: 404,
    resolution: 'Use the unsubscribe address exactly as the mail gave it; nothing was changed.',
  },
  notifications_unavailable: {
    when: 'A provider notification reached a server whose payment gateway sends none (the simulator), or that ' +
      'has no webhook secret configured (Stripe without STRIPE_WEBHOOK_SECRET).',
    status: 404,
    resolution: 'Point the provider at this path only when the server runs a gateway that sends notifications.',
  },
  feature_not_found: {
    when: 'No visible roadmap feature has this featureId.',
    status: 404,
    resolution: 'List the votable features with GET /api/v1/roadmap and use one of their ids.',
  },
  method_not_allowed: {
    when: 'The path exists but does not answer this method; the Allow header lists the methods it answers.',
    status: 405,
    resolution: 'Use one of the methods in the Allow header.',
  },
  request_timeout: {
    when: 'The client took longer than the server allows to send the request headers or body.',
    status: 408,
    resolution: 'Send the whole request promptly; retry on a new connection.',
  },
  expectation_failed: {
    when: 'The request has an Expect header other than 100-continue, the only expectation the server meets.',
    status: 417,
    resolution: 'Send the request without the Expect header (or with Expect: 100-continue).',
  },
  payload_too_large: {
    when: 'The request body is larger than the body limit (16 KiB unless the operator changed it).',
    status: 413,
    resolution: 'Send a smaller body; the limit is given in the message.',
  },
  unsupported_media_type: {
    when: 'A request body was sent with a Content-Type other than application/json.',
    status: 415,
    resolution: 'Send the body as JSON with the header Content-Type: application/json.',
  },
  headers_too_large: {
    when: 'The request headers are larger than the server accepts (16 KiB for the standalone server).',
    status: 431,
    resolution: 'Send fewer or smaller headers (cookies included) and retry.',
  },
  rate_limited: {
    when: 'The client used up its request quota for the current window; Retry-After gives the seconds until the reset.',
    status: 429,
    resolution: 'Wait for the number of seconds in Retry-After (the reset time) and retry.',
  },
  too_many_checkouts: {
    when: 'POST checkout/create from a client that holds the most unpaid, unexpired checkout sessions it may ' +
      '(openCheckoutsPerClient, 10 by default); Retry-After gives the seconds until the oldest expires.',
    status: 429,
    resolution: 'Pay with a checkout session already opened, or retry when the oldest one expires (see Retry-After).',
  },
  too_many_resends: {
    when: 'POST licenses/resend from a client that asked 5 times in the last hour (a fixed window per client); ' +
      'Retry-After gives the seconds until the window ends.',
    status: 429,
    resolution: 'Retry after the time in Retry-After; the keys of an address go to that address only.',
  },
  too_much_feedback: {
    when: 'POST feedback from a client that sent the most feedback it may today (feedbackBytesPerClientPerDay, ' +
      "512 KiB by default), or its share of what the other clients left of the day's total " +
      '(clientSharePercent, 1% by default); Retry-After gives the seconds until the day (UTC) ends.',
    status: 429,
    resolution: 'Retry after the time in Retry-After, when the daily budget resets.',
  },
  budget_exhausted: {
    when: 'All clients together used up a storage budget: the feedback bytes of the day (feedbackBytesPerDay, ' +
      '64 MiB by default; Retry-After gives the seconds until the day ends), or the open checkout sessions ' +
      '(openCheckouts, 10,000 by default; Retry-After gives the seconds until the first of them expires).',
    status: 429,
    resolution: 'Retry after the time in Retry-After, when the budget has room again.',
  },
  storage_full: {
    when: 'The in-memory storage (STORAGE=memory) holds as much of this kind of record as its cap allows: ' +
      'feedback, checkout sessions or roadmap votes. Nothing is stored; the server keeps serving everything else.',
    status: 503,
    resolution: 'Retry later; if the problem persists, contact support.',
  },
  internal_error: {
    when: 'An unexpected fault on the server; the body gives no detail of it.',
    status: 500,
    resolution: 'Retry later; if the problem persists, contact support.',
  },
  client_address_missing: {
    when: 'The host that embeds the app gave it no client address for the request, and the app is set to refuse ' +
      "such requests (clientAddress: 'required') rather than count every such client as one.",
    status: 500,
    resolution: "Nothing is wrong with the request: the server cannot tell its clients apart. Retry later; if it persists, tell the site's operator.",
  },
  shutting_down: {
    when: 'GET /readyz on an instance that began to shut down: it still finishes what it has, but wants no new traffic.',
    status: 503,
    resolution: 'Send new requests to another instance; this one stops shortly.',
  },
  storage_unavailable: {
    when: 'GET /readyz while the storage does not answer a trivial query (the cause is in the server log).',
    status: 503,
    resolution: 'Send traffic to another instance; check the database and the server log of this one.',
  },
} as const satisfies Record<string, { when: string; status: number; resolution: string }>;

/** A stable, machine-readable error code. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;
