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

  it('every answer, errors included, carries the five headers and counts against the quota', async (server) => {
    const from = server.newClient();
    const results = [
      await server.request({ path: '/nope', from }),
      await server.request({ method: 'DELETE', path: '/api/v1/pricing', from }),
      await server.request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: '{', from }),
      await server.request({ method: 'OPTIONS', path: '/api/v1/pricing', from }),
      await server.request({ method: 'HEAD', path: '/api/v1/pricing', from }),
    ];
    results.forEach((result, i) => {
      // The window's end is the first answer's; seconds to it may tick down between answers.
      const reset = result.headers['ratelimit-reset'];
      assert.ok(/^[1-9]\d?$/.test(reset ?? '') && Number(reset) <= 60, `answer ${i}: reset ${reset}`);
      assert.is(result.headers['ratelimit'], `"public-api";r=${119 - i};t=${reset}`, `answer ${i}`);
      assert.is(result.headers['ratelimit-policy'], '"public-api";q=120;w=60', `answer ${i}`);
      assert.is(result.headers['ratelimit-limit'], '120', `answer ${i}`);
      assert.is(result.headers['ratelimit-remaining'], String(119 - i), `answer ${i}`);
    });
  });

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
