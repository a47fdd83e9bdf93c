/** The Errors section and the error object. */
import { CheckSkip, describe, fail } from '../answer.ts';
import { ALIAS, type Check, V1 } from '../check.ts';
import { expectApiError, expectRateLimitHeaders } from '../expect.ts';

const UNKNOWN = 'conformance-no-such-endpoint';

export const errorChecks: readonly Check[] = [
  {
    id: 'not-found',
    clause: 'errors.not_found',
    title: 'An unknown path under /api/v1 is 404 not_found; the message names the path, the resolution points to /openapi.json',
    requests: 1,
    async run(t) {
      const path = `${V1}/${UNKNOWN}`;
      const answer = await t.client().get(path);
      const body = expectApiError(answer, 404, 'not_found');
      if (!body['message']!.includes(path)) fail(`expected the message to name ${path}, got ${JSON.stringify(body['message'])}`);
      if (!/openapi/i.test(body['resolution']!)) {
        fail(`expected the resolution to point to the interface description, got ${JSON.stringify(body['resolution'])}`);
      }
    },
  },
  {
    id: 'not-found-alias',
    clause: 'errors.not_found',
    also: ['endpoints.aliases'],
    title: 'An unknown path under the /api alias is 404 not_found',
    requests: 1,
    async run(t) {
      expectApiError(await t.client().get(`${ALIAS}/${UNKNOWN}`), 404, 'not_found');
    },
  },
  {
    id: 'error-object',
    clause: 'error-object.fields',
    also: ['error-object.closed', 'errors.json', 'service.json-bodies'],
    title: 'Every error (400, 404) is JSON of exactly {code, message, resolution}, all strings',
    requests: 4,
    async run(t) {
      const client = t.client();
      expectApiError(await client.post(`${V1}/feedback`, {}), 400);
      expectApiError(await client.post(`${V1}/roadmap`, { featureId: 0 }), 400);
      expectApiError(await client.get(`${V1}/checkout/status`), 400);
      expectApiError(await client.get(`${V1}/${UNKNOWN}`), 404);
    },
  },
  {
    id: 'error-rate-limit-headers',
    clause: 'endpoints.rate-limit-headers',
    title: 'Error answers (400, 404) carry the rate-limit headers',
    requests: 5,
    async run(t) {
      const client = t.client();
      const answers = [
        await client.get(`${V1}/${UNKNOWN}`),
        await client.post(`${V1}/feedback`, { description: '' }),
        await client.post(`${V1}/roadmap`, { featureId: 0 }),
        await client.get(`${V1}/checkout/status`),
        await client.get(`${ALIAS}/${UNKNOWN}`),
      ];
      for (const answer of answers) {
        if (answer.status < 400) fail(`expected an error, got: ${describe(answer)}`);
        expectRateLimitHeaders(answer);
      }
    },
  },
  {
    id: 'rate-limited',
    clause: 'errors.rate_limited',
    also: ['errors.retry-after', 'limits.Retry-After', 'endpoints.rate-limit-headers'],
    title: 'Past the quota: 429 rate_limited with Retry-After in integer seconds and the rate-limit headers',
    requests: 0,
    async run(t) {
      const { limited } = await t.exhausted();
      if (!limited) throw new CheckSkip('no 429 came (see quota-enforced)');
      expectApiError(limited, 429, 'rate_limited');
      const retryAfter = limited.headers.get('retry-after');
      if (retryAfter === null || !/^\d+$/.test(retryAfter.trim())) {
        fail(`expected Retry-After in integer seconds, got ${JSON.stringify(retryAfter)}: ${describe(limited)}`);
      }
      expectRateLimitHeaders(limited);
    },
  },
];
