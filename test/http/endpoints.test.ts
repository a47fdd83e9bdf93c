import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SIMULATOR_KEY_SHAPE } from '../_licenses.ts';
import { withValidation } from '../_openapi.ts';
import { startTestServer, type HttpResult, type TestServer } from '../_setup.ts';

const endpoints = suite('endpoints over HTTP');
let server: TestServer;
let clientNumber = 1;
/** Each test gets its own client address, so quotas never mix. */
const nextClient = () => `127.0.0.${++clientNumber}`;

endpoints.before.each(async () => {
  server = await withValidation(await startTestServer());
});
endpoints.after.each(async () => {
  await server.close();
});

const RATE_LIMIT_NAMES = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

function assertRateLimitHeaders(result: HttpResult, remaining: number): void {
  assert.is(result.headers['ratelimit'], `"public-api";r=${remaining};t=60`);
  assert.is(result.headers['ratelimit-policy'], '"public-api";q=120;w=60');
  assert.is(result.headers['ratelimit-limit'], '120');
  assert.is(result.headers['ratelimit-remaining'], String(remaining));
  assert.is(result.headers['ratelimit-reset'], '60');
}

const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

endpoints('GET /api/v1/pricing: 200, JSON offer, rate-limit headers', async () => {
  const result = await server.request({ path: '/api/v1/pricing', from: nextClient() });
  assert.is(result.status, 200);
  assert.is(result.headers['content-type'], 'application/json');
  assert.is(result.headers['content-length'], String(Buffer.byteLength(result.text)));
  assertRateLimitHeaders(result, 119);
  assert.equal(result.json(), server.content.offer);
});

endpoints('GET /api/v1/download: 302 to the MSI for Windows, with Location only from config', async () => {
  const result = await server.request({
    path: '/api/v1/download?source=homepage',
    headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' },
    from: nextClient(),
  });
  assert.is(result.status, 302);
  assert.is(result.headers['location'], server.content.download.msiUrl);
  assert.is(result.headers['cache-control'], 'no-store');
  assert.is(result.headers['vary'], 'User-Agent, Sec-CH-UA-Platform');
  assert.is(result.text, '');
  assert.is(result.headers['content-length'], '0');
  assert.is(result.headers['transfer-encoding'], undefined);
  assertRateLimitHeaders(result, 119);
});

endpoints('GET /api/v1/download?force=2: 400 invalid_parameter', async () => {
  const result = await server.request({ path: '/api/v1/download?force=2', from: nextClient() });
  assert.is(result.status, 400);
  assert.is((result.json() as { code: string }).code, 'invalid_parameter');
  assertRateLimitHeaders(result, 119);
});

endpoints('GET /api/v1/version: 200 {version, downloadUrl}', async () => {
  const result = await server.request({ path: '/api/v1/version', from: nextClient() });
  assert.is(result.status, 200);
  assert.equal(result.json(), { version: '2.4.1', downloadUrl: server.content.download.msiUrl });
});

endpoints('POST /api/v1/feedback: 201 {success: true}', async () => {
  const result = await server.request({ method: 'POST', path: '/api/v1/feedback', ...json({ description: 'Works great', rating: 5 }), from: nextClient() });
  assert.is(result.status, 201);
  assert.is(result.text, '{"success":true}');
  assertRateLimitHeaders(result, 119);
});

endpoints('GET and POST /api/v1/roadmap: the vote of one client address toggles, seen by GET', async () => {
  const me = nextClient();
  const voted = await server.request({ method: 'POST', path: '/api/v1/roadmap', ...json({ featureId: 2 }), from: me });
  assert.is(voted.status, 200);
  assert.equal(voted.json(), { voted: true, vote_count: 1 });
  const mine = (await server.request({ path: '/api/v1/roadmap', from: me })).json() as { features: { id: number; voted: boolean }[] };
  assert.equal(mine.features.map((f) => [f.id, f.voted]), [[1, false], [2, true], [3, false], [4, false]]);
  const theirs = (await server.request({ path: '/api/v1/roadmap', from: nextClient() })).json() as typeof mine;
  assert.equal(theirs.features.map((f) => f.voted), [false, false, false, false]);
  const unvoted = await server.request({ method: 'POST', path: '/api/v1/roadmap', ...json({ featureId: 2 }), from: me });
  assert.equal(unvoted.json(), { voted: false, vote_count: 0 });
});

endpoints('POST /api/v1/roadmap for a hidden feature: 404 feature_not_found', async () => {
  const result = await server.request({ method: 'POST', path: '/api/v1/roadmap', ...json({ featureId: 5 }), from: nextClient() });
  assert.is(result.status, 404);
  assert.is((result.json() as { code: string }).code, 'feature_not_found');
});

endpoints('checkout: create without a body, pay on the simulator page, then status is paid with keys', async () => {
  const me = nextClient();
  const created = await server.request({ method: 'POST', path: '/api/v1/checkout/create', from: me });
  assert.is(created.status, 200);
  const { sessionId, url } = created.json() as { sessionId: string; url: string };
  assert.equal(Object.keys(created.json() as object), ['sessionId', 'url']);
  const pending = await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}`, from: me });
  assert.equal(pending.json(), { status: 'pending', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
  const page = await server.request({ path: new URL(url).pathname, from: me });
  assert.is(page.status, 200);
  assert.match(page.text, 'PAYMENT SIMULATOR');
  const pay = await server.request({
    method: 'POST',
    path: `${new URL(url).pathname}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    from: me,
  });
  assert.is(pay.status, 303);
  const paid = (await server.request({ path: `/api/checkout/status?session_id=${sessionId}`, from: me })).json() as Record<string, unknown>;
  assert.is(paid['status'], 'paid');
  assert.match(String(paid['licenseKey']), SIMULATOR_KEY_SHAPE);
  assert.is(paid['licenseKey'], paid['standardLicenseKey']);
  assert.is(paid['plusLicenseKey'], null);
});

endpoints('GET /api/v1/checkout/status without session_id: 400 invalid_request', async () => {
  const result = await server.request({ path: '/api/v1/checkout/status', from: nextClient() });
  assert.is(result.status, 400);
  assert.is((result.json() as { code: string }).code, 'invalid_request');
});

endpoints('GET /llms.txt: 200 text/plain; GET /openapi.json: 200 OpenAPI 3.1', async () => {
  const me = nextClient();
  const llms = await server.request({ path: '/llms.txt', from: me });
  assert.is(llms.status, 200);
  assert.is(llms.headers['content-type'], 'text/plain; charset=utf-8');
  assert.match(llms.text, /^# Legacy Sheet Converter website API\n/);
  const openapi = await server.request({ path: '/openapi.json', from: me });
  assert.is(openapi.status, 200);
  assert.is(openapi.headers['content-type'], 'application/json');
  const doc = openapi.json() as { openapi: string; info: { version: string } };
  assert.match(doc.openapi, /^3\.1\./);
  assert.is(doc.info.version, '1.0.0');
  assertRateLimitHeaders(openapi, 118);
});

for (const [method, path, body] of [
  ['GET', '/pricing', undefined],
  ['GET', '/version', undefined],
  ['GET', '/download?force=1', undefined],
  ['GET', '/download?force=yes', undefined],
  ['GET', '/roadmap', undefined],
  ['POST', '/roadmap', { featureId: 99 }],
  ['POST', '/feedback', { description: '' }],
  ['POST', '/checkout/create', { product: 'gold' }],
  ['GET', '/checkout/status?session_id=nope', undefined],
] as const) {
  endpoints(`${method} /api${path} answers exactly like /api/v1${path}`, async () => {
    const send = (prefix: string) =>
      server.request({ method, path: prefix + path, ...(body === undefined ? {} : json(body)), from: nextClient() });
    const [v1, alias] = [await send('/api/v1'), await send('/api')];
    assert.is(alias.status, v1.status);
    assert.is(alias.text, v1.text);
    const strip = (h: Record<string, string>) =>
      Object.fromEntries(Object.entries(h).filter(([name]) => !['date', 'connection', 'keep-alive', 'x-request-id'].includes(name)));
    assert.equal(strip(alias.headers), strip(v1.headers));
  });
}

endpoints('every response, errors included, carries the five rate-limit headers', async () => {
  const me = nextClient();
  const results = [
    await server.request({ path: '/nope', from: me }),
    await server.request({ method: 'DELETE', path: '/api/v1/pricing', from: me }),
    await server.request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: '{', from: me }),
    await server.request({ method: 'OPTIONS', path: '/api/v1/pricing', from: me }),
    await server.request({ method: 'HEAD', path: '/api/v1/pricing', from: me }),
  ];
  results.forEach((result, i) => {
    for (const name of RATE_LIMIT_NAMES) assert.ok(result.headers[name], `${name} on response ${i}`);
    assert.is(result.headers['ratelimit-remaining'], String(119 - i));
  });
});

endpoints.run();
