/**
 * An answer read as the endpoint promises it: the parsed body, the text or the redirect target on
 * success, an ApiClientError otherwise.
 *
 * @module
 */
import * as v from 'valibot';
import type { Endpoint } from '../core/endpoint.ts';
import type { ErrorCode } from '../core/http/errors.ts';
import { ApiClientError } from './error.ts';
import { readRateLimit } from './rate-limit.ts';
import type { RateLimitState, WithMeta } from './types.ts';

/** What an unexpected answer is told to do. */
const CHECK_SERVER = 'Check that baseUrl points at this API (GET /openapi.json answers there) and that no proxy rewrites its answers.';

function invalid(endpoint: Endpoint, status: number, rateLimit: RateLimitState | undefined, message: string): ApiClientError {
  return new ApiClientError({ code: 'invalid_response', message, resolution: CHECK_SERVER, status, rateLimit, operationId: endpoint.operationId });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The API's error object, or undefined when the body is something else. */
function errorBody(body: unknown): { code: ErrorCode; message: string; resolution: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, message, resolution } = body as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string' || typeof resolution !== 'string') return undefined;
  return { code: code as ErrorCode, message, resolution };
}

/**
 * Reads one answer.
 *
 * @param endpoint The endpoint called.
 * @param url The address called, against which a relative Location is resolved.
 * @param response Its answer.
 * @param validate Whether to check a JSON body against the endpoint's success schema.
 * @returns The body (or text, or redirect target) with the status, headers and rate-limit state.
 * @throws ApiClientError for an error answer or an answer the endpoint does not promise.
 */
export async function readAnswer(endpoint: Endpoint, url: string, response: Response, validate: boolean): Promise<WithMeta<unknown>> {
  const { status, headers } = response;
  const rateLimit = readRateLimit(headers);
  const meta = { status, headers, rateLimit };
  const success = endpoint.success;
  if (success.status === 302) {
    const location = headers.get('location');
    if (status >= 300 && status < 400 && location) return { ...meta, data: new URL(location, url).href };
    if (response.type === 'opaqueredirect') {
      throw invalid(
        endpoint,
        status,
        rateLimit,
        `${endpoint.operationId}: a browser does not show a redirect's Location to scripts; link to the address of ${endpoint.operationId}Link() instead.`,
      );
    }
  }
  const text = await response.text();
  if (status === 204 && success.status === 204) return { ...meta, data: undefined };
  if (status >= 200 && status < 300 && success.status !== 302) {
    if ('freeForm' in success && success.mediaType !== 'application/json') return { ...meta, data: text };
    const body = parseJson(text);
    if (body === undefined) throw invalid(endpoint, status, rateLimit, `${endpoint.operationId}: the ${status} answer is not JSON.`);
    if (validate && 'schema' in success) {
      const result = v.safeParse(success.schema, body);
      if (!result.success) {
        const issue = result.issues[0];
        const path = issue.path?.map((item) => String(item.key)).join('.');
        throw invalid(
          endpoint,
          status,
          rateLimit,
          `${endpoint.operationId}: the answer breaks ${success.schemaName}${path ? ` at ${path}` : ''}: ${issue.message}`,
        );
      }
    }
    return { ...meta, data: body };
  }
  const error = errorBody(parseJson(text));
  if (!error) throw invalid(endpoint, status, rateLimit, `${endpoint.operationId}: HTTP ${status} without the API's error body.`);
  throw new ApiClientError({ ...error, status, rateLimit, operationId: endpoint.operationId });
}
