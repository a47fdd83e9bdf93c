/**
 * Reading a JSON request body: size, media type, UTF-8 and JSON checks, each with its own error.
 *
 * @module
 */
import { ApiError } from './errors.ts';
import { type CoreRequest, headerValue } from './http.ts';

/** The default largest body, in bytes. */
export const DEFAULT_BODY_LIMIT = 16 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function byteLength(body: Uint8Array | string): number {
  return typeof body === 'string' ? new TextEncoder().encode(body).length : body.length;
}

/** application/json, or any application/*+json type, with or without parameters. */
function isJsonType(contentType: string): boolean {
  if (contentType === 'application/json') return true;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * The JSON object in a request body.
 *
 * @param request The request.
 * @param limit The largest body accepted, in bytes.
 * @param required Whether an empty body is an error (otherwise it reads as undefined).
 * @returns The parsed object, or undefined for an absent optional body.
 * @throws ApiError payload_too_large, unsupported_media_type or invalid_request.
 */
export function readJsonObject(request: CoreRequest, limit: number, required: boolean): object | undefined {
  const body = request.body;
  const size = body === undefined ? 0 : byteLength(body);
  if (size > limit) {
    throw new ApiError('payload_too_large', `The request body is larger than the limit of ${limit} bytes.`);
  }
  if (size === 0) {
    if (required) throw new ApiError('invalid_request', 'A JSON object body is required.');
    return undefined;
  }
  const contentType = headerValue(request.headers, 'content-type');
  if (contentType === undefined || !isJsonType(contentType)) {
    throw new ApiError(
      'unsupported_media_type',
      `The body must be sent as application/json, not ${contentType === undefined ? 'without a Content-Type' : JSON.stringify(contentType)}.`,
    );
  }
  let text: string;
  try {
    text = typeof body === 'string' ? body : utf8.decode(body);
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  }
  return value;
}
