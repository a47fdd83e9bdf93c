/** The rate-limit headers and the 429 answer. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { expectError } from './_expect.ts';

export const rateLimitSpec: Spec = (it) => {
  it('a first request carries the five headers with a full window', async (server) => {
    const response = await server.request({ path: '/api/v1/does-not-exist', from: server.newClient() });
    assert.is(response.status, 404);
    assert.is(response.headers['ratelimit'], '"public-api";r=119;t=60');
    assert.is(response.headers['ratelimit-policy'], '"public-api";q=120;w=60');
    assert.is(response.headers['ratelimit-limit'], '120');
    assert.is(response.headers['ratelimit-remaining'], '119');
    assert.is(response.headers['ratelimit-reset'], '60');
    assert.is(response.headers['retry-after'], undefined);
  }, { smoke: true });

  it('the 121st request of a client is 429 rate_limited with Retry-After; another client is unaffected', async (server) => {
    const from = server.newClient();
    for (let i = 1; i <= 120; i++) {
      const response = await server.request({ path: '/api/v1/version', from });
      assert.is(response.status, 200, `request ${i}`);
      assert.is(response.headers['ratelimit-remaining'], String(120 - i));
    }
    const limited = await server.request({ path: '/api/v1/version', from });
    expectError(limited, 429, 'rate_limited', 'Too many requests: the limit is 120 per 60 seconds per client.');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, limited.headers['retry-after']);
    assert.ok(retryAfter >= Number(limited.headers['ratelimit-reset']));
    assert.is(limited.headers['ratelimit-remaining'], '0');
    const other = await server.request({ path: '/api/v1/version', from: server.newClient() });
    assert.is(other.status, 200);
  }, { smoke: true });
};
