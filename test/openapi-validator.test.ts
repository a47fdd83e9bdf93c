/**
 * The response validator of test/_openapi.ts: real answers of every kind (the app's, in process) pass, and
 * a wrong body, a missing or malformed header, an undocumented status or a wrong Content-Type are rejected
 * with a precise message.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type ResponseValidator, type SeenResponse, withValidation } from './_openapi.ts';
import { type InProcessServer, startInProcessServer } from './_in-process.ts';
import type { HttpResult } from './_setup.ts';
import { storedFile } from './_update-files.ts';

type Context = { server?: InProcessServer & { validator: ResponseValidator } };

/** The message the validator throws, or undefined when it accepts. */
function rejection(validator: ResponseValidator, method: string, path: string, result: SeenResponse): string | undefined {
  try {
    validator.validate(method, path, result);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** A copy of a result with some headers replaced (undefined removes one). */
function withHeaders(result: HttpResult, headers: Record<string, string | undefined>): SeenResponse {
  const merged: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...result.headers, ...headers })) if (value !== undefined) merged[name] = value;
  return { status: result.status, headers: merged, text: result.text };
}

for (
  const [name, overrides] of [
    ['default', {}],
    ['aliases deprecated', { aliasDeprecation: { deprecatedAt: Date.UTC(2026, 0, 1), sunsetAt: Date.UTC(2027, 0, 1) } }],
  ] as const
) {
  const real = suite<Context>(`real answers pass (${name})`, {});
  real.before(async (context) => {
    context.server = await withValidation(await startInProcessServer(overrides));
  });
  real.after(async (context) => context.server?.close());

  real('every kind of answer is accepted', async ({ server }) => {
    const request = server!.request;
    const seen = [
      await request({ path: '/api/v1/pricing' }),
      await request({ path: '/api/pricing?x=1' }),
      await request({ path: '/api/v1/version/' }),
      await request({ method: 'HEAD', path: '/api/v1/version' }),
      await request({ path: '/api/v1/download', headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0)' } }),
      await request({ path: '/api/v1/download?force=2' }),
      await request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: '{"description":"x"}' }),
      await request({ method: 'POST', path: '/api/feedback', headers: { 'content-type': 'text/plain' }, body: 'x' }),
      await request({ method: 'POST', path: '/api/v1/roadmap', headers: { 'content-type': 'application/json' }, body: '{"featureId":999}' }),
      await request({ method: 'POST', path: '/api/v1/checkout/create' }),
      await request({ path: '/api/v1/checkout/status' }),
      await request({ path: '/llms.txt' }),
      await request({ path: '/openapi.json' }),
      await request({ path: '/api/v2/pricing' }),
      await request({ method: 'DELETE', path: '/api/v1/pricing' }),
      await request({ method: 'POST', path: '/llms.txt' }),
    ];
    assert.equal(
      seen.map((result) => result.status),
      [200, 200, 200, 200, 302, 400, 201, 415, 404, 200, 400, 200, 200, 404, 405, 405],
    );
  });

  real("the update files' answers pass: 200, 304 and 302 without rate-limit headers, 400 and 404 with them", async ({ server }) => {
    const sha = 'ab'.repeat(32);
    const stored = (role: 'root' | 'timestamp' | 'targets', version: number, signed: Record<string, unknown> = {}) => storedFile(role, version, signed);
    const msi = { 'LegacySheetConverter-2.7.0-x64.msi': { length: 4096, hashes: { sha256: sha }, custom: { url: 'https://downloads.example.com/2.7.0.msi' } } };
    await server!.storage.change(async (tx) => {
      for (const file of [stored('root', 1), stored('timestamp', 1), stored('targets', 1, { targets: msi })]) await tx.updateFiles.putUpdateFile(file);
    });
    await server!.app.refreshReleases();
    const request = server!.request;
    const timestamp = await request({ path: '/updates/stable/timestamp.json' });
    const seen = [
      timestamp,
      await request({ path: '/updates/stable/timestamp.json', headers: { 'if-none-match': String(timestamp.headers['etag']) } }),
      await request({ path: '/updates/stable/1.targets.json' }),
      await request({ method: 'HEAD', path: '/updates/stable/1.root.json' }),
      await request({ path: `/updates/stable/targets/${sha}.LegacySheetConverter-2.7.0-x64.msi` }),
      await request({ path: '/updates/Stable!/timestamp.json' }),
      await request({ path: '/updates/stable/9.snapshot.json' }),
      await request({ path: `/updates/stable/targets/${'cd'.repeat(32)}.x.msi` }),
    ];
    assert.equal(seen.map((result) => result.status), [200, 304, 200, 200, 302, 400, 404, 404]);
    assert.is(
      rejection(server!.validator, 'GET', '/updates/stable/timestamp.json', withHeaders(timestamp, { 'cache-control': 'no-store' })),
      'GET /updates/stable/timestamp.json answered 200: header Cache-Control is "no-store", but value must match pattern "^public, max-age=[0-9]+(, immutable)?$"',
    );
  });

  real('a 429 on an undocumented path is checked as the documented 429', async ({ server }) => {
    for (let i = 0; i < 120; i++) await server!.request({ path: '/nowhere', from: '127.0.0.9' });
    const limited = await server!.request({ path: '/nowhere', from: '127.0.0.9' });
    assert.is(limited.status, 429);
    assert.is(
      rejection(server!.validator, 'GET', '/nowhere', withHeaders(limited, { 'retry-after': undefined })),
      'GET /nowhere answered 429: required header Retry-After is missing',
    );
  });

  real.run();
}

const wrong = suite<Context>('wrong answers are rejected', {});
wrong.before(async (context) => {
  context.server = await withValidation(await startInProcessServer({ aliasDeprecation: { deprecatedAt: 0, sunsetAt: Date.UTC(2027, 0, 1) } }));
});
wrong.after(async (context) => context.server?.close());

wrong('a body that does not match the schema', async ({ server }) => {
  const pricing = await server!.request({ path: '/api/v1/pricing' });
  const { currency: _, ...body } = pricing.json() as Record<string, unknown>;
  const message = rejection(server!.validator, 'GET', '/api/v1/pricing', { ...pricing, text: JSON.stringify(body) });
  assert.match(message ?? '', /^GET \/api\/v1\/pricing answered 200: body must have required property 'currency'; the body was \{/);
  const text = JSON.stringify({ ...(pricing.json() as object), extra: 1 });
  assert.match(rejection(server!.validator, 'GET', '/api/v1/pricing', { ...pricing, text }) ?? '', 'must NOT have additional properties');
  assert.match(rejection(server!.validator, 'GET', '/api/v1/pricing', { ...pricing, text: '{' }) ?? '', 'the body is not JSON');
});

wrong('an error body whose code is not documented for that status', async ({ server }) => {
  const error = await server!.request({ path: '/api/v1/checkout/status' });
  const text = JSON.stringify({ ...(error.json() as object), code: 'invalid_parameter' });
  assert.match(
    rejection(server!.validator, 'GET', '/api/v1/checkout/status', { ...error, text }) ?? '',
    'body/code must be equal to one of the allowed values',
  );
});

wrong('a missing or malformed header', async ({ server }) => {
  const pricing = await server!.request({ path: '/api/v1/pricing' });
  const check = (headers: Record<string, string | undefined>, path = '/api/v1/pricing') =>
    rejection(server!.validator, 'GET', path, withHeaders(pricing, headers));
  assert.is(check({ 'ratelimit-reset': undefined }), 'GET /api/v1/pricing answered 200: required header RateLimit-Reset is missing');
  assert.is(
    check({ 'ratelimit-remaining': 'many' }),
    'GET /api/v1/pricing answered 200: header RateLimit-Remaining is "many", but value must be integer',
  );
  assert.match(check({ ratelimit: 'r=1' }) ?? '', 'header RateLimit is "r=1", but value must match pattern');
  assert.match(check({ 'ratelimit-reset': '0' }) ?? '', 'header RateLimit-Reset is "0", but value must be >= 1');
  const alias = await server!.request({ path: '/api/pricing' });
  assert.is(rejection(server!.validator, 'GET', '/api/pricing', alias), undefined);
  assert.is(
    rejection(server!.validator, 'GET', '/api/pricing', withHeaders(alias, { sunset: undefined })),
    'GET /api/pricing answered 200: required header Sunset is missing',
  );
});

wrong('an undocumented status or Content-Type', async ({ server }) => {
  const pricing = await server!.request({ path: '/api/v1/pricing' });
  assert.is(
    rejection(server!.validator, 'GET', '/api/v1/pricing', { ...pricing, status: 201 }),
    'GET /api/v1/pricing answered 201: status 201 is not documented (documented: 200, 429, 500)',
  );
  assert.is(
    rejection(server!.validator, 'GET', '/api/v1/pricing', withHeaders(pricing, { 'content-type': 'text/html' })),
    'GET /api/v1/pricing answered 200: Content-Type "text/html" is not one of application/json',
  );
});

wrong('an unknown path that is not 404 not_found, a wrong method that is not 405 with Allow', async ({ server }) => {
  const pricing = await server!.request({ path: '/api/v1/pricing' });
  assert.is(
    rejection(server!.validator, 'GET', '/api/v1/prices', pricing),
    'GET /api/v1/prices answered 200: the path is not documented, so it must answer 404',
  );
  const missing = await server!.request({ path: '/api/v1/prices' });
  const text = JSON.stringify({ ...(missing.json() as object), code: 'feature_not_found' });
  assert.match(rejection(server!.validator, 'GET', '/api/v1/prices', { ...missing, text }) ?? '', 'body/code must be equal to constant');
  const notAllowed = await server!.request({ method: 'PUT', path: '/api/v1/roadmap' });
  assert.is(notAllowed.headers['allow'], 'GET, HEAD, POST, OPTIONS');
  assert.is(
    rejection(server!.validator, 'PUT', '/api/v1/roadmap', withHeaders(notAllowed, { allow: 'GET' })),
    'PUT /api/v1/roadmap answered 405: the Allow header "GET" lacks POST',
  );
  assert.is(
    rejection(server!.validator, 'PUT', '/api/v1/roadmap', { ...notAllowed, status: 404 }),
    'PUT /api/v1/roadmap answered 404: the path documents only GET, POST, so it must answer 405',
  );
});

wrong('a body where the document says there is none', async ({ server }) => {
  const redirect = await server!.request({ path: '/api/v1/download' });
  assert.is(redirect.status, 302);
  assert.is(
    rejection(server!.validator, 'GET', '/api/v1/download', { ...redirect, text: 'hello' }),
    'GET /api/v1/download answered 302: no body is documented, got "hello"',
  );
});

wrong.run();
