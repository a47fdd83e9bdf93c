/** The Limits section: the rate-limit headers and the quota. */
import { type Answer, describe, fail } from '../answer.ts';
import { type Check, type Client, V1, WINDOWS } from '../check.ts';
import { expectRateLimitHeaders, expectStatus, QUOTA, WINDOW } from '../expect.ts';

/** One answer of every endpoint, successes and the discovery documents. */
async function everyEndpoint(client: Client): Promise<Answer[]> {
  return [
    await client.get(`${V1}/pricing`),
    await client.get(`${V1}/download`, WINDOWS),
    await client.get(`${V1}/version`),
    await client.post(`${V1}/feedback`, { description: 'conformance kit: rate-limit headers' }),
    await client.get(`${V1}/roadmap`),
    await client.post(`${V1}/checkout/create`),
    await client.get('/llms.txt'),
    await client.get('/openapi.json'),
  ];
}

export const rateLimitChecks: readonly Check[] = [
  {
    id: 'rate-limit-headers',
    clause: 'endpoints.rate-limit-headers',
    also: ['limits.RateLimit', 'limits.RateLimit-Policy', 'limits.RateLimit-Limit', 'limits.Retry-After'],
    title: 'Every endpoint answers with RateLimit, RateLimit-Policy, RateLimit-Limit, -Remaining, -Reset, and no Retry-After',
    requests: 8,
    sessions: 1,
    async run(t) {
      for (const answer of await everyEndpoint(t.client())) {
        if (answer.status >= 400) fail(`expected a success, got: ${describe(answer)}`);
        expectRateLimitHeaders(answer);
      }
    },
  },
  {
    id: 'rate-limit-reset',
    clause: 'limits.RateLimit-Reset',
    title: 'RateLimit-Reset is the seconds until the window resets: an integer from 0 to 60',
    requests: 1,
    async run(t) {
      const answer = await t.client().get(`${V1}/version`);
      const { reset } = expectRateLimitHeaders(answer);
      if (reset > WINDOW) fail(`expected RateLimit-Reset at most ${WINDOW}, got ${reset}`);
    },
  },
  {
    id: 'rate-limit-remaining',
    clause: 'limits.RateLimit-Remaining',
    title: 'RateLimit-Remaining counts down by one per request of the same client',
    requests: 3,
    async run(t) {
      const client = t.client();
      const counts: number[] = [];
      for (let i = 0; i < 3; i++) counts.push(expectRateLimitHeaders(await client.get(`${V1}/version`)).remaining);
      const [a, b, c] = counts as [number, number, number];
      // A window may end between two requests; two steps in a row must then still count down.
      if (!(b === a - 1 || c === b - 1)) fail(`expected RateLimit-Remaining to fall by 1 per request, got ${counts.join(', ')}`);
    },
  },
  {
    id: 'quota-enforced',
    clause: 'limits.quota',
    title: 'Once RateLimit-Remaining is 0, the next request of that client is 429',
    requests: QUOTA + 1,
    async run(t) {
      const { answers, limited } = await t.exhausted();
      if (!limited) fail(`expected a 429 within ${answers.length} requests of one client, got none`);
      const before = answers[answers.length - 2];
      if (before && expectRateLimitHeaders(before).remaining !== 0) {
        fail(`expected the 429 only after RateLimit-Remaining 0, got it after ${describe(before)} with remaining ${before.headers.get('ratelimit-remaining')}`);
      }
    },
  },
  {
    id: 'quota-per-window',
    clause: 'limits.quota',
    title: 'A fresh client gets exactly 120 requests in a window: remaining 119 at first, the 121st is 429',
    requests: 0,
    needs: ['clients'],
    async run(t) {
      const { answers, limited } = await t.exhausted();
      const first = answers[0];
      if (!first) fail('expected answers');
      const { remaining } = expectRateLimitHeaders(first);
      if (remaining !== QUOTA - 1) fail(`expected RateLimit-Remaining ${QUOTA - 1} on a fresh client's first request, got ${remaining}`);
      if (!limited || answers.length !== QUOTA + 1) {
        fail(`expected the 429 on request ${QUOTA + 1}, got ${limited ? `it on request ${answers.length}` : 'none'}`);
      }
    },
  },
  {
    id: 'quota-per-client',
    clause: 'authentication.per-ip',
    also: ['limits.quota'],
    title: 'The quota is per client address: another client is served while one is limited',
    requests: 1,
    needs: ['clients'],
    async run(t) {
      await t.exhausted();
      // Unpaced: a 429 here is the finding, not a reason to wait.
      expectStatus(await t.client().send({ path: `${V1}/version`, unpaced: true }), 200);
    },
  },
];
