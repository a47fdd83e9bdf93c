import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../core/http/errors.ts';
import { compilePattern, createRouter } from '../../core/http/router.ts';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const routing = suite('routing');

routing('an unknown path is 404 not_found naming the path and pointing to /openapi.json', async () => {
  const { app } = await createTestApp();
  const response = await app.handle(coreRequest({ path: '/api/v1/convert' }));
  assert.is(response.status, 404);
  assert.is(response.headers['content-type'], 'application/json');
  assert.is(response.headers['ratelimit-remaining'], '119');
  assert.equal(bodyJson(response), {
    code: 'not_found',
    message: 'No API endpoint exists at "/api/v1/convert".',
    resolution: 'See /openapi.json for the published endpoints.',
  });
});

for (
  const [method, path, allow] of [
    ['GET', '/api/v1/feedback', 'POST, OPTIONS'],
    ['DELETE', '/api/v1/roadmap', 'GET, HEAD, POST, OPTIONS'],
    ['PUT', '/api/pricing', 'GET, HEAD, OPTIONS'],
    ['POST', '/openapi.json', 'GET, HEAD, OPTIONS'],
    ['GET', '/api/v1/checkout/create', 'POST, OPTIONS'],
  ] as const
) {
  routing(`${method} ${path} is 405 method_not_allowed with Allow: ${allow}`, async () => {
    const { app } = await createTestApp();
    const response = await app.handle(coreRequest({ method, path }));
    assert.is(response.status, 405);
    assert.is(response.headers['allow'], allow);
    assert.equal(bodyJson(response), {
      code: 'method_not_allowed',
      message: `${method} is not allowed on ${path}; use ${allow}.`,
      resolution: 'Use one of the methods in the Allow header.',
    });
  });
}

routing('HEAD answers like GET without a body', async () => {
  const { app } = await createTestApp();
  const response = await app.handle(coreRequest({ method: 'HEAD', path: '/api/v1/pricing' }));
  assert.is(response.status, 200);
  assert.is(response.body, null);
  assert.is(response.headers['content-type'], 'application/json');
  assert.is(response.headers['ratelimit-limit'], '120');
});

routing('a trailing slash reaches the same operation', async () => {
  const { app } = await createTestApp();
  const response = await app.handle(coreRequest({ path: '/api/v1/version/' }));
  assert.is(response.status, 200);
});

routing('every response says Cache-Control: no-store, since each holds per-client rate-limit state', async () => {
  const { app } = await createTestApp();
  for (const path of ['/api/v1/pricing', '/nope', '/openapi.json']) {
    assert.is((await app.handle(coreRequest({ path }))).headers['cache-control'], 'no-store');
  }
});

routing('every response says X-Content-Type-Options: nosniff; only HTML gets a Referrer-Policy', async () => {
  const { app } = await createTestApp();
  for (
    const request of [{ path: '/api/v1/pricing' }, { path: '/nope' }, { path: '/llms.txt' }, { path: '/api/v1/download' }, {
      method: 'PUT',
      path: '/api/v1/version',
    }]
  ) {
    const response = await app.handle(coreRequest(request));
    assert.is(response.headers['x-content-type-options'], 'nosniff', request.path);
    assert.is(response.headers['referrer-policy'], undefined, request.path);
  }
  const refused = await app.reject('203.0.113.9', new ApiError('malformed_request', 'The request is not valid HTTP/1.1.'));
  assert.is(refused.headers['x-content-type-options'], 'nosniff');
});

routing('a 404 quotes the path JSON-escaped, cut at 200 characters with "…" and never mid surrogate pair', async () => {
  const { app } = await createTestApp();
  const message = async (path: string) => (bodyJson(await app.handle(coreRequest({ path }))) as { message: string }).message;
  assert.is(await message('/"quoted"\\\u0001'), 'No API endpoint exists at "/\\"quoted\\"\\\\\\u0001".');
  assert.is(await message(`/${'x'.repeat(199)}`), `No API endpoint exists at "/${'x'.repeat(199)}".`);
  assert.is(await message(`/${'x'.repeat(200)}`), `No API endpoint exists at "/${'x'.repeat(199)}…".`);
  assert.is(await message(`/${'x'.repeat(198)}😀`), `No API endpoint exists at "/${'x'.repeat(198)}…".`);
});

routing('a plain OPTIONS on a known path is 204 with Allow; on an unknown path 404', async () => {
  const { app } = await createTestApp();
  const known = await app.handle(coreRequest({ method: 'OPTIONS', path: '/api/v1/roadmap' }));
  assert.is(known.status, 204);
  assert.is(known.body, null);
  assert.is(known.headers['allow'], 'GET, HEAD, POST, OPTIONS');
  assert.is(known.headers['access-control-allow-origin'], undefined);
  const unknown = await app.handle(coreRequest({ method: 'OPTIONS', path: '/api/v1/nope' }));
  assert.is(unknown.status, 404);
});

routing('CORS: a preflight from an allowed origin is answered; another origin gets no CORS headers', async () => {
  const { app } = await createTestApp({ corsOrigins: ['https://www.example.com'] });
  const preflight = (origin: string) =>
    app.handle(
      coreRequest({
        method: 'OPTIONS',
        path: '/api/v1/feedback',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      }),
    );
  const allowed = await preflight('https://www.example.com');
  assert.is(allowed.status, 204);
  assert.is(allowed.headers['access-control-allow-origin'], 'https://www.example.com');
  assert.is(allowed.headers['access-control-allow-methods'], 'POST, OPTIONS');
  assert.is(allowed.headers['access-control-allow-headers'], 'Content-Type, X-Request-Id');
  assert.is(allowed.headers['access-control-max-age'], '600');
  assert.is(allowed.headers['vary'], 'Origin');
  const denied = await preflight('https://evil.example');
  assert.is(denied.status, 204);
  assert.is(denied.headers['access-control-allow-origin'], undefined);
});

routing('CORS: an actual response to an allowed origin exposes the rate-limit, request id and deprecation headers', async () => {
  const { app } = await createTestApp({ corsOrigins: ['https://www.example.com'] });
  const response = await app.handle(coreRequest({ path: '/api/v1/pricing', headers: { origin: 'https://www.example.com' } }));
  assert.is(response.headers['access-control-allow-origin'], 'https://www.example.com');
  assert.is(
    response.headers['access-control-expose-headers'],
    'RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id, Deprecation, Sunset, Link',
  );
  assert.is(response.headers['vary'], 'Origin');
  const limitedOrigin = await app.handle(coreRequest({ path: '/api/v1/pricing', headers: { origin: 'https://evil.example' } }));
  assert.is(limitedOrigin.headers['access-control-allow-origin'], undefined);
});

routing('aliases carry no deprecation notice by default', async () => {
  const { app } = await createTestApp();
  const response = await app.handle(coreRequest({ path: '/api/pricing' }));
  assert.is(response.headers['deprecation'], undefined);
  assert.is(response.headers['sunset'], undefined);
  assert.is(response.headers['link'], undefined);
});

routing('deprecated aliases carry Deprecation, Sunset and a successor Link; /api/v1 does not', async () => {
  const { app } = await createTestApp({
    aliasDeprecation: { deprecatedAt: Date.UTC(2027, 0, 1), sunsetAt: Date.UTC(2027, 6, 1) },
  });
  const alias = await app.handle(coreRequest({ path: '/api/checkout/status', query: '' }));
  assert.is(alias.status, 400);
  assert.is(alias.headers['deprecation'], '@1798761600');
  assert.is(alias.headers['sunset'], 'Thu, 01 Jul 2027 00:00:00 GMT');
  assert.is(alias.headers['link'], '</api/v1/checkout/status>; rel="successor-version"');
  const v1 = await app.handle(coreRequest({ path: '/api/v1/checkout/status' }));
  assert.is(v1.headers['deprecation'], undefined);
});

routing('an unmatched path is matched once a route for it is added', () => {
  const router = createRouter();
  const handler = () => ({ status: 204, headers: {}, body: null });
  router.add('GET', '/a/:id', handler);
  const notFound = { kind: 'not_found', template: null, metered: true };
  assert.equal(router.match('POST', '/b/1'), notFound);
  assert.equal(router.match('GET', '/b/1'), notFound);
  assert.equal(router.match('POST', '/a/1'), { kind: 'method_not_allowed', allow: 'GET, HEAD, OPTIONS', template: '/a/:id', metered: true });
  router.add('GET', '/b/:id', handler);
  const found = router.match('GET', '/b/1');
  assert.is(found.kind, 'handler');
});

routing('patterns are tried by their first segment, in the order added, then those that start with a parameter', () => {
  const router = createRouter();
  const named = (name: string) => () => ({ status: 200, headers: { name }, body: null });
  router.add('GET', '/updates/:channel/targets/:file', named('target'));
  router.add('GET', '/updates/:channel/:file', named('file'));
  router.add('GET', '/:anything/special', named('any'));
  const which = (path: string) => {
    const found = router.match('GET', path);
    return found.kind === 'handler'
      ? `${(found.handler({ method: 'GET', path, headers: {}, clientIp: '' }, found.params) as unknown as { headers: { name: string } }).headers.name} ${
        JSON.stringify(found.params)
      }`
      : found.kind;
  };
  assert.is(which('/updates/stable/targets/ab.msi'), 'target {"channel":"stable","file":"ab.msi"}');
  assert.is(which('/updates/stable/timestamp.json'), 'file {"channel":"stable","file":"timestamp.json"}');
  assert.is(which('/updates/special'), 'any {"anything":"updates"}', "a parameter first segment is tried after the head's patterns");
  assert.is(which('/checkout/special'), 'any {"anything":"checkout"}');
  assert.is(which('/checkout/x/y'), 'not_found');
});

routing('a pattern route: each :name matches one non-empty segment, and other pattern syntax is refused', () => {
  const router = createRouter();
  const seen: Record<string, string>[] = [];
  router.add('POST', '/checkout/simulator/:id/:action', (_request, params) => {
    seen.push(params);
    return { status: 204, headers: {}, body: null };
  });
  const matched = router.match('POST', '/checkout/simulator/cs_sim_1.a/pay/');
  assert.is(matched.kind, 'handler');
  if (matched.kind === 'handler') assert.equal({ ...matched.params }, { id: 'cs_sim_1.a', action: 'pay' });
  assert.equal(router.match('GET', '/checkout/simulator/cs_sim_1/pay'), {
    kind: 'method_not_allowed',
    allow: 'POST, OPTIONS',
    template: '/checkout/simulator/:id/:action',
    metered: true,
  });
  for (const path of ['/checkout/simulator//pay', '/checkout/simulator/a/b/c', '/checkout/simulatorX/a/pay']) {
    assert.equal(router.match('POST', path), { kind: 'not_found', template: null, metered: true }, path);
  }
  assert.is(compilePattern('/v1.0/:id').test('/v1x0/7'), false, 'a dot is literal');
  for (const pattern of ['/files/*', '/a/:id+', '/a/:id?', '/a/(x)']) {
    assert.throws(() => compilePattern(pattern), /unsupported route pattern segment/, pattern);
  }
});

routing.run();
