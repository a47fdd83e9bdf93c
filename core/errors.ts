/**
 * The one error type of the API and the catalogue of its stable codes.
 *
 * @module
 */

/** Every error code the API answers with, its HTTP status and the default advice to the client. */
export const ERROR_CATALOGUE = {
  invalid_request: {
    status: 400,
    resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
  },
  invalid_parameter: {
    status: 400,
    resolution: 'Fix the query parameter as the message says; /openapi.json describes the allowed values.',
  },
  description_required: {
    status: 400,
    resolution: 'Send a non-empty "description" string in the JSON body.',
  },
  unknown_session: {
    status: 400,
    resolution: 'Use the sessionId returned by POST /api/v1/checkout/create, or create a new checkout session.',
  },
  session_expired: {
    status: 400,
    resolution: 'The checkout session expired before payment; create a new one with POST /api/v1/checkout/create.',
  },
  payment_failed: {
    status: 400,
    resolution: 'The payment did not go through; create a new checkout session and pay with another method.',
  },
  invalid_signature: {
    status: 400,
    resolution:
      'Only the payment provider may call this path: sign the raw body with the endpoint secret as the provider documents.',
  },
  not_found: {
    status: 404,
    resolution: 'See /openapi.json for the published endpoints.',
  },
  notifications_unavailable: {
    status: 404,
    resolution: 'Point the provider at this path only when the server runs a gateway that sends notifications.',
  },
  feature_not_found: {
    status: 404,
    resolution: 'List the votable features with GET /api/v1/roadmap and use one of their ids.',
  },
  method_not_allowed: {
    status: 405,
    resolution: 'Use one of the methods in the Allow header.',
  },
  payload_too_large: {
    status: 413,
    resolution: 'Send a smaller body; the limit is given in the message.',
  },
  unsupported_media_type: {
    status: 415,
    resolution: 'Send the body as JSON with the header Content-Type: application/json.',
  },
  rate_limited: {
    status: 429,
    resolution: 'Wait for the number of seconds in Retry-After (the reset time) and retry.',
  },
  internal_error: {
    status: 500,
    resolution: 'Retry later; if the problem persists, contact support.',
  },
} as const satisfies Record<string, { status: number; resolution: string }>;

/** A stable, machine-readable error code. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The body of every error response: exactly these three fields. */
export interface ApiErrorBody {
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
export class ApiError extends Error {
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
}

/** The 500 answer for any unexpected fault: nothing of the fault itself reaches the client. */
export function internalError(): ApiError {
  return new ApiError('internal_error', 'The server failed to handle the request.');
}
