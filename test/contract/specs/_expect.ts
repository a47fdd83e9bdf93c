/**
 * Assertions shared by the contract specs.
 */
import * as assert from 'uvu/assert';
import type { HttpResult } from '../../_client.ts';

/** Asserts a JSON response: status, content type and the exact body. */
export function expectJson(response: HttpResult, status: number, body: unknown): void {
  assert.is(response.status, status, response.text);
  assert.is(response.headers['content-type'], 'application/json');
  assert.is(response.headers['x-content-type-options'], 'nosniff');
  assert.equal(response.json(), body);
}

/** Asserts an error response: status and exactly {code, message, resolution}. */
export function expectError(response: HttpResult, status: number, code: string, message: string): void {
  assert.is(response.status, status, response.text);
  assert.is(response.headers['content-type'], 'application/json');
  assert.is(response.headers['x-content-type-options'], 'nosniff');
  const body = response.json() as Record<string, unknown>;
  assert.equal(Object.keys(body).sort(), ['code', 'message', 'resolution']);
  assert.is(body['code'], code);
  assert.is(body['message'], message);
  assert.type(body['resolution'], 'string');
}

/** The JSON request headers. */
export const JSON_BODY = { 'content-type': 'application/json' } as const;
