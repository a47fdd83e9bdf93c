/**
 * The one error type of the API and the catalogue of its stable codes.
 *
 * @module
 */
import { JSON_TYPE, type CoreResponse } from './http.ts';

/** Every error code the API answers with: when it happens, its HTTP status and the default advice to the client. */
export const ERROR_CATALOGUE = {
  invalid_request: {
    when:
      'The JSON body or a query parameter is malformed, has a wrong type, an out-of-range value or an ' +
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
    when:
      'A download query parameter is invalid: force other than "1", or a source label over 64 characters ' +
      'or outside A-Z a-z 0-9 . _ -.',
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
    when:
      'A provider notification has a missing or malformed signature header, no signature that matches the ' +
      'raw body, or a signed time more than 300 seconds from the server time; nothing is changed.',
    status: 400,
    resolution:
      'Only the payment provider may call this path: sign the raw body with the endpoint secret as the provider documents.',
  },
  not_found: {
    when: 'No API endpoint exists at the requested path; the message names the path.',
    status: 404,
    resolution: 'See /openapi.json for the published endpoints.',
  },
  notifications_unavailable: {
    when:
      'A provider notification reached a server whose payment gateway sends none (the simulator), or that ' +
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
    when:
      'POST checkout/create from a client that holds the most unpaid, unexpired checkout sessions it may ' +
      '(openCheckoutsPerClient, 10 by default); Retry-After gives the seconds until the oldest expires.',
    status: 429,
    resolution: 'Pay with a checkout session already opened, or retry when the oldest one expires (see Retry-After).',
  },
  too_much_feedback: {
    when:
      'POST feedback from a client that sent the most feedback it may today (feedbackBytesPerClientPerDay, ' +
      '512 KiB by default), or its share of what the other clients left of the day\'s total ' +
      '(clientSharePercent, 1% by default); Retry-After gives the seconds until the day (UTC) ends.',
    status: 429,
    resolution: 'Retry after the time in Retry-After, when the daily budget resets.',
  },
  budget_exhausted: {
    when:
      'All clients together used up a storage budget: the feedback bytes of the day (feedbackBytesPerDay, ' +
      '64 MiB by default; Retry-After gives the seconds until the day ends), or the open checkout sessions ' +
      '(openCheckouts, 10,000 by default; Retry-After gives the seconds until the first of them expires).',
    status: 429,
    resolution: 'Retry after the time in Retry-After, when the budget has room again.',
  },
  storage_full: {
    when:
      'The in-memory storage (STORAGE=memory) holds as much of this kind of record as its cap allows: ' +
      'feedback, checkout sessions or roadmap votes. Nothing is stored; the server keeps serving everything else.',
    status: 503,
    resolution: 'Retry later; if the problem persists, contact support.',
  },
  internal_error: {
    when: 'An unexpected fault on the server; the body gives no detail of it.',
    status: 500,
    resolution: 'Retry later; if the problem persists, contact support.',
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

/** The body of every error answer, public or operator: exactly these three fields. */
export interface ErrorBody {
  code: string;
  message: string;
  resolution: string;
}

/** The body of every public error response. */
export interface ApiErrorBody extends ErrorBody {
  code: ErrorCode;
  message: string;
  resolution: string;
}

/**
 * An error that becomes a JSON error response.
 *
 * @param code The stable error code; it fixes the HTTP status.
 * @param message What went wrong, for a person.
 * @param resolution What the client should do next; defaults to the catalogue's advice.
 */
/** An error that is its own JSON answer: ApiError, and the operator API's errors (core/operator/errors.ts). */
export abstract class AnsweringError extends Error {
  /** The HTTP status of the answer. */
  abstract readonly status: number;
  /** The JSON body of the answer. */
  abstract toBody(): ErrorBody;
  abstract toResponse(): CoreResponse;
}

export class ApiError extends AnsweringError {
  readonly code: ErrorCode;
  readonly status: number;
  readonly resolution: string;
  /** Extra response headers, e.g. Allow on 405. */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, resolution?: string, headers?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.resolution = resolution ?? ERROR_CATALOGUE[code].resolution;
    this.headers = headers;
  }

  /** The exact JSON body sent to the client. */
  toBody(): ApiErrorBody {
    return { code: this.code, message: this.message, resolution: this.resolution };
  }

  /** The JSON answer. */
  toResponse(): CoreResponse {
    return errorResponse(this.code, this.message, this.resolution, this.headers);
  }
}

const encoder = new TextEncoder();

/** The encoded JSON body of an error, for callers that keep it and answer with `errorAnswer`. */
export function encodeError(code: ErrorCode, message: string, resolution: string = ERROR_CATALOGUE[code].resolution): Uint8Array {
  return encoder.encode(JSON.stringify({ code, message, resolution }));
}

/**
 * The answer of an error code around a body encoded by `encodeError`, built without an Error object:
 * the 404 and 429 paths must cost no more than a served request, and a stack trace would dominate them.
 *
 * @param code The error code; it fixes the status.
 * @param body The encoded body.
 * @param headers Extra headers (Allow on 405, Retry-After on 429).
 */
export function errorAnswer(code: ErrorCode, body: Uint8Array, headers?: Record<string, string>): CoreResponse {
  return {
    status: ERROR_CATALOGUE[code].status,
    headers: headers ? { 'content-type': JSON_TYPE, ...headers } : { 'content-type': JSON_TYPE },
    body,
  };
}

/**
 * The JSON answer of an error code.
 *
 * @param code The error code; it fixes the status.
 * @param message What went wrong.
 * @param resolution The advice; the catalogue's by default.
 * @param headers Extra headers (Allow on 405, Retry-After on 429).
 */
export function errorResponse(
  code: ErrorCode,
  message: string,
  resolution: string = ERROR_CATALOGUE[code].resolution,
  headers?: Record<string, string>,
): CoreResponse {
  return errorAnswer(code, encodeError(code, message, resolution), headers);
}

/** The 500 answer for any unexpected fault: nothing of the fault itself reaches the client. */
export function internalError(): ApiError {
  return new ApiError('internal_error', 'The server failed to handle the request.');
}
