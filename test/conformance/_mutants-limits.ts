/** Broken apps for the rate-limit headers and the quota. */
import { CLIENT_HEADER } from './_reference.ts';
import { errorAnswer, everyAnswer, type Mutant, rewriteHeaders, rewriteJson } from './_mutate.ts';

const headers = (change: (h: Headers, response: Response) => void) => everyAnswer(async (a) => rewriteHeaders(a, (h) => change(h, a)));
const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
let unique = 0;

export const limitMutants: Mutant[] = [
  {
    name: 'no rate-limit headers on errors',
    clause: 'endpoints.rate-limit-headers',
    wrap: headers((h, a) => a.status >= 400 && RATE_LIMIT_HEADERS.forEach((name) => h.delete(name))),
  },
  { name: 'a policy of 100 requests', clause: 'limits.RateLimit-Policy', wrap: headers((h) => h.set('ratelimit-policy', '"public-api";q=100;w=60')) },
  {
    name: 'RateLimit r off by one',
    clause: 'limits.RateLimit',
    wrap: headers((h) => h.set('ratelimit', (h.get('ratelimit') ?? '').replace(/r=(\d+)/, (_, r: string) => `r=${Number(r) + 1}`))),
  },
  { name: 'RateLimit-Limit 100', clause: 'limits.RateLimit-Limit', wrap: headers((h) => h.set('ratelimit-limit', '100')) },
  {
    name: 'RateLimit-Remaining stuck at 119',
    clause: 'limits.RateLimit-Remaining',
    wrap: headers((h) => {
      h.set('ratelimit-remaining', '119');
      h.set('ratelimit', (h.get('ratelimit') ?? '').replace(/r=\d+/, 'r=119'));
    }),
  },
  {
    name: 'RateLimit-Reset in milliseconds',
    clause: 'limits.RateLimit-Reset',
    wrap: headers((h) => h.set('ratelimit-reset', String(Number(h.get('ratelimit-reset')) * 1000))),
  },
  { name: 'Retry-After on every answer', clause: 'limits.Retry-After', wrap: headers((h) => h.set('retry-after', h.get('retry-after') ?? '0')) },
  { name: 'a 429 without Retry-After', clause: 'errors.retry-after', wrap: headers((h, a) => a.status === 429 && h.delete('retry-after')) },
  {
    name: 'rate_limited named too_many_requests',
    clause: 'errors.rate_limited',
    wrap: everyAnswer(async (a) => (a.status === 429 ? rewriteJson(a, (body) => ({ ...body, code: 'too_many_requests' })) : a)),
  },
  {
    name: 'no quota at all',
    clause: 'limits.quota',
    wrap: (next) => (r) => {
      const h = new Headers(r.headers);
      h.set(CLIENT_HEADER, `2001:db8:0:${(unique++).toString(16)}::1`);
      return next(new Request(r, { headers: h }));
    },
  },
  {
    name: 'a quota of 100',
    clause: 'limits.quota',
    wrap: everyAnswer(async (a) => {
      const remaining = Number(a.headers.get('ratelimit-remaining'));
      return a.status !== 429 && remaining < 19 ? errorAnswer(a, 429, 'rate_limited') : a;
    }),
  },
  {
    name: 'one quota for every address',
    clause: 'authentication.per-ip',
    wrap: (next) => (r) => {
      const h = new Headers(r.headers);
      h.delete(CLIENT_HEADER);
      return next(new Request(r, { headers: h }));
    },
  },
];
