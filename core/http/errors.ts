/**
 * The one error type of the API (its codes: error-catalogue.ts) and the answers it becomes.
 *
 * @module
 */
import { type CoreResponse, JSON_TYPE } from './http.ts';

export { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue.ts';
import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue.ts';

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
