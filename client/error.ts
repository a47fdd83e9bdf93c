/**
 * What a failed call rejects with: the API's error body, the HTTP status and the rate-limit state.
 *
 * @module
 */
import type { ErrorCode } from '../core/http/errors.ts';
import type { RateLimitState } from './types.ts';

/**
 * The code of a failure the client detects itself: an answer that is not what the endpoint promises (a
 * body that is not JSON or not the API's error object, a body that fails validation, a redirect without a
 * readable Location).
 */
export type ClientErrorCode = 'invalid_response';

/**
 * A call that did not succeed: the server answered with an error (its code, message and resolution), or
 * with something the endpoint does not promise (`invalid_response`). Network failures reject with the
 * fetch's own error instead.
 */
export class ApiClientError extends Error {
  /** The API's stable error code (docs/errors.md), or invalid_response. */
  readonly code: ErrorCode | ClientErrorCode;
  /** The HTTP status; 0 when the response could not be read (an opaque redirect). */
  readonly status: number;
  /** The suggested next step. */
  readonly resolution: string;
  /** The rate-limit state of the answer; retryAfter is set on 429. */
  readonly rateLimit: RateLimitState | undefined;
  /** The operation that failed. */
  readonly operationId: string;

  /**
   * @param fields The code, message, resolution, status, rate-limit state and operationId.
   */
  constructor(fields: {
    code: ErrorCode | ClientErrorCode;
    message: string;
    resolution: string;
    status: number;
    rateLimit: RateLimitState | undefined;
    operationId: string;
  }) {
    super(fields.message);
    this.name = 'ApiClientError';
    this.code = fields.code;
    this.status = fields.status;
    this.resolution = fields.resolution;
    this.rateLimit = fields.rateLimit;
    this.operationId = fields.operationId;
  }
}
