/** Broken apps for feedback, the roadmap, checkout and the /api aliases. */
import { CLIENT_HEADER } from './_reference.ts';
import {
  errorAnswer,
  everyAnswer,
  isOperation,
  type Mutant,
  pathOf,
  reanswer,
  restatus,
  rewriteHeaders,
  rewriteJson,
  rewriteRequest,
  when,
} from './_mutate.ts';

const FEEDBACK_TYPES = ['feature_request', 'bug_report', 'general', 'review'];
const feedback = (r: Request) => isOperation(r, 'POST', '/feedback');
const vote = (r: Request) => isOperation(r, 'POST', '/roadmap');
const alias = (r: Request) => pathOf(r).startsWith('/api/') && !pathOf(r).startsWith('/api/v1/');
const fixRequest = (match: (r: Request) => boolean, rewrite: (body: Record<string, unknown> | null) => unknown) =>
  when(match, async (r, next) => next(await rewriteRequest(r, rewrite)));

export const stateMutants: Mutant[] = [
  {
    name: 'feedback answers 200',
    clause: 'rules.4',
    wrap: when(feedback, async (r, next) => {
      const a = await next(r);
      return a.status === 201 ? restatus(a, 200) : a;
    }),
  },
  {
    name: 'feedback success with an id',
    clause: 'feedback-success.body',
    wrap: when(feedback, async (r, next) => rewriteJson(await next(r), (body) => ('success' in body ? { ...body, id: 7 } : body))),
  },
  {
    name: 'bug reports refused',
    clause: 'feedback-request.type',
    wrap: when(
      (r) => feedback(r),
      async (r, next) => ((await r.clone().text()).includes('"bug_report"') ? errorAnswer(await next(r), 400, 'invalid_request') : next(r)),
    ),
  },
  {
    name: 'feedback without a description accepted',
    clause: 'feedback-request.description',
    wrap: fixRequest(feedback, (body) => (body && !('description' in body) ? { ...body, description: '(none)' } : body)),
  },
  {
    name: 'an empty description accepted',
    clause: 'limits.feedback-description',
    wrap: fixRequest(feedback, (body) => (body?.['description'] === '' ? { ...body, description: '(empty)' } : body)),
  },
  {
    name: 'any rating accepted',
    clause: 'limits.feedback-rating',
    wrap: fixRequest(feedback, (body) => (body && 'rating' in body ? { ...body, rating: 3 } : body)),
  },
  {
    name: 'any feedback type accepted',
    clause: 'feedback-request.type',
    wrap: fixRequest(feedback, (body) => (body && !FEEDBACK_TYPES.includes(String(body['type'] ?? 'general')) ? { ...body, type: 'general' } : body)),
  },
  {
    name: 'any email accepted',
    clause: 'feedback-request.email',
    wrap: fixRequest(
      feedback,
      (body) => (body && typeof body['email'] === 'string' && !body['email'].includes('@') ? { ...body, email: 'someone@example.com' } : body),
    ),
  },
  { name: 'feedback without a body accepted', clause: 'endpoints.post-feedback', wrap: fixRequest(feedback, (body) => body ?? { description: '(no body)' }) },
  {
    name: 'the roadmap list with a total',
    clause: 'roadmap-list.closed',
    wrap: when((r) => isOperation(r, 'GET', '/roadmap'), async (r, next) => rewriteJson(await next(r), (body) => ({ ...body, total: 4 }))),
  },
  {
    name: 'vote counts as strings',
    clause: 'roadmap-feature.fields',
    wrap: when(
      (r) => isOperation(r, 'GET', '/roadmap'),
      async (r, next) =>
        rewriteJson(
          await next(r),
          (body) => ({ features: (body['features'] as Record<string, unknown>[]).map((f) => ({ ...f, vote_count: String(f['vote_count']) })) }),
        ),
    ),
  },
  {
    name: 'a vote that does not toggle',
    clause: 'rules.6',
    wrap: when(vote, async (r, next) => {
      const again = r.clone();
      const first = await next(r);
      const body = (await first.clone().json().catch(() => null)) as { voted?: boolean } | null;
      return body?.voted === false ? next(again) : first;
    }),
  },
  {
    name: 'voted always false in the list',
    clause: 'rules.5',
    wrap: when(
      (r) => isOperation(r, 'GET', '/roadmap'),
      async (r, next) => rewriteJson(await next(r), (body) => ({ features: (body['features'] as object[]).map((f) => ({ ...f, voted: false })) })),
    ),
  },
  {
    name: 'votes of every address counted as one',
    clause: 'authentication.per-ip',
    wrap: when(vote, async (r, next) => {
      const headers = new Headers(r.headers);
      headers.set(CLIENT_HEADER, '203.0.113.254');
      return next(new Request(r.url, { method: 'POST', headers, body: await r.text() }));
    }),
  },
  {
    name: 'an unknown feature is 400',
    clause: 'rules.6',
    wrap: when(vote, async (r, next) => {
      const a = await next(r);
      return a.status === 404 ? errorAnswer(a, 400, 'invalid_request') : a;
    }),
  },
  {
    name: 'featureId 0 and "1" taken as 1',
    clause: 'limits.featureId',
    wrap: fixRequest(vote, (body) => (body && !(Number.isInteger(body['featureId']) && (body['featureId'] as number) >= 1) ? { ...body, featureId: 1 } : body)),
  },
  {
    name: 'unknown vote fields ignored',
    clause: 'roadmap-vote-request.closed',
    wrap: fixRequest(vote, (body) => (body ? { featureId: body['featureId'] } : body)),
  },
  {
    name: 'a vote without a body is 404',
    clause: 'endpoints.post-roadmap',
    wrap: when((r) => vote(r) && r.body === null, async (r, next) => errorAnswer(await next(r), 404, 'not_found')),
  },
  {
    name: 'the vote answer names the feature',
    clause: 'roadmap-vote-response.fields',
    wrap: when(vote, async (r, next) => rewriteJson(await next(r), (body) => ('voted' in body ? { ...body, featureId: 1 } : body))),
  },
  {
    name: 'checkout create needs a body',
    clause: 'checkout-create-request.optional',
    wrap: when((r) => isOperation(r, 'POST', '/checkout/create') && r.body === null, async (r, next) => errorAnswer(await next(r), 400, 'invalid_request')),
  },
  {
    name: 'the Plus bundle refused',
    clause: 'checkout-create-request.values',
    wrap: when(
      (r) => isOperation(r, 'POST', '/checkout/create'),
      async (r, next) => ((await r.clone().text()).includes('plus_bundle') ? errorAnswer(await next(r), 400, 'invalid_request') : next(r)),
    ),
  },
  {
    name: 'checkout created with an expiry',
    clause: 'checkout-create-response.fields',
    wrap: when((r) => isOperation(r, 'POST', '/checkout/create'), async (r, next) => rewriteJson(await next(r), (body) => ({ ...body, expiresAt: 0 }))),
  },
  {
    name: 'a pending session said to be open',
    clause: 'states.checkout-status',
    wrap: when(
      (r) => isOperation(r, 'GET', '/checkout/status'),
      async (r, next) => rewriteJson(await next(r), (body) => (body['status'] === 'pending' ? { ...body, status: 'open' } : body)),
    ),
  },
  {
    name: 'session_id optional (404)',
    clause: 'rules.8',
    wrap: when(
      (r) => isOperation(r, 'GET', '/checkout/status') && !new URL(r.url).searchParams.has('session_id'),
      async (r, next) => errorAnswer(await next(r), 404, 'not_found'),
    ),
  },
  {
    name: 'a made-up status for an unknown session',
    clause: 'rules.8.unknown-session',
    wrap: when((r) => isOperation(r, 'GET', '/checkout/status') && new URL(r.url).searchParams.has('session_id'), async (r, next) => {
      const a = await next(r);
      return a.status === 400 ? reanswer(a, { status: 200, body: JSON.stringify({ status: 'pending' }) }) : a;
    }),
  },
  {
    name: 'a paid session still processing',
    clause: 'rules.8',
    wrap: when(
      (r) => isOperation(r, 'GET', '/checkout/status'),
      async (r, next) => rewriteJson(await next(r), (body) => (body['status'] === 'paid' ? { ...body, status: 'processing' } : body)),
    ),
  },
  {
    name: 'description_required named missing_description',
    clause: 'errors.description_required',
    strict: true,
    wrap: everyAnswer(async (
      a,
    ) => (a.status === 400 ? rewriteJson(a, (body) => (body['code'] === 'description_required' ? { ...body, code: 'missing_description' } : body)) : a)),
  },
  {
    name: 'a paid session without keys',
    clause: 'rules.8',
    strict: true,
    wrap: when(
      (r) => isOperation(r, 'GET', '/checkout/status'),
      async (r, next) => rewriteJson(await next(r), (body) => (body['status'] === 'paid' ? { status: 'paid', licenseKey: null } : body)),
    ),
  },
  {
    name: 'alias pricing with an extra field',
    clause: 'endpoints.aliases',
    wrap: when((r) => alias(r) && pathOf(r) === '/api/pricing', async (r, next) => rewriteJson(await next(r), (body) => ({ ...body, legacy: true }))),
  },
  {
    name: 'alias version one behind',
    clause: 'endpoints.aliases',
    wrap: when((r) => alias(r) && pathOf(r) === '/api/version', async (r, next) => rewriteJson(await next(r), (body) => ({ ...body, version: '0.9.0' }))),
  },
  {
    name: 'alias download to another mirror',
    clause: 'endpoints.aliases',
    wrap: when(
      (r) => alias(r) && pathOf(r) === '/api/download',
      async (r, next) => rewriteHeaders(await next(r), (h) => h.set('location', `${h.get('location')}#mirror`)),
    ),
  },
  {
    name: 'alias feedback answers 200',
    clause: 'endpoints.aliases',
    wrap: when((r) => alias(r) && pathOf(r) === '/api/feedback', async (r, next) => {
      const a = await next(r);
      return a.status === 201 ? restatus(a, 200) : a;
    }),
  },
  {
    name: 'alias errors with other codes',
    clause: 'endpoints.aliases',
    wrap: everyAnswer(async (a, r) => (alias(r) && a.status === 400 ? rewriteJson(a, (body) => ({ ...body, code: 'bad_request' })) : a)),
  },
  {
    name: 'alias votes counted twice',
    clause: 'endpoints.aliases',
    wrap: when((r) => alias(r) && vote(r), async (r, next) => {
      const again = r.clone();
      await next(r);
      return next(again);
    }),
  },
  {
    name: 'alias checkout status missing',
    clause: 'endpoints.aliases',
    wrap: when((r) => alias(r) && pathOf(r) === '/api/checkout/status', async (r, next) => errorAnswer(await next(r), 404, 'not_found')),
  },
  {
    name: 'Deprecation as an HTTP-date',
    clause: 'versioning.4',
    appOptions: { aliasDeprecation: { deprecatedAt: Date.UTC(2027, 0, 1), sunsetAt: Date.UTC(2027, 6, 1) } },
    wrap: everyAnswer(async (a) => (a.headers.has('deprecation') ? rewriteHeaders(a, (h) => h.set('deprecation', 'Fri, 01 Jan 2027 00:00:00 GMT')) : a)),
  },
];
