/**
 * Rows and rules of spec/public-api.md that the endpoint and contract tests do not reach over a
 * real socket: the not_found resolution, the surfaces the service does not have (uploads, conversion,
 * GraphQL, OAuth, MCP, versioned discovery documents), the field limits of each request, the values of
 * every enum the spec lists, the warning page for a client that names no platform, and the pending ->
 * processing -> paid status with the keys of each product.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { HttpInit, HttpResult } from '../_client.ts';
import { SIMULATOR_KEY_SHAPE } from '../_licenses.ts';
import { withValidation } from '../_openapi.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';

const rows = suite('spec rows over HTTP');
let server: InProcessServer;
let clientNumber = 0;
/** Each test gets its own client address, so quotas never mix. */
const nextClient = () => `127.0.14.${++clientNumber}`;

rows.before.each(async () => {
  server = await withValidation(await startInProcessServer());
});
rows.after.each(async () => {
  await server.close();
});

const INVALID = 'Fix the request body or query as the message says; /openapi.json describes every field.';

function post(path: string, body: unknown, from = nextClient()): Promise<HttpResult> {
  const init: HttpInit = { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), from };
  return server.request(init);
}

function assertJson(result: HttpResult, status: number, body: unknown): void {
  assert.is(result.status, status, result.text);
  assert.is(result.headers['content-type'], 'application/json');
  assert.equal(result.json(), body);
}

rows('not_found: the message names the path, the resolution points to /openapi.json, with the rate-limit headers', async () => {
  const result = await server.request({ path: '/api/v1/upload', from: nextClient() });
  assertJson(result, 404, {
    code: 'not_found',
    message: 'No API endpoint exists at "/api/v1/upload".',
    resolution: 'See /openapi.json for the published endpoints.',
  });
  assert.is(result.headers['ratelimit'], '"public-api";r=119;t=60');
  assert.is(result.headers['retry-after'], undefined);
});

rows('no remote surfaces: a conversion, GraphQL, OAuth or MCP path is 404 not_found, on /api/v1 and /api', async () => {
  for (
    const path of ['/api/v1/convert', '/api/convert', '/api/v1/graphql', '/api/graphql', '/api/v1/oauth/token', '/api/oauth/token', '/api/v1/mcp', '/api/mcp']
  ) {
    const result = await server.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{}', from: nextClient() });
    assertJson(result, 404, {
      code: 'not_found',
      message: `No API endpoint exists at "${path}".`,
      resolution: 'See /openapi.json for the published endpoints.',
    });
  }
});

rows('the discovery documents have no versioned form: /api/v1/llms.txt and /api/v1/openapi.json are 404 not_found', async () => {
  for (const path of ['/api/v1/llms.txt', '/api/v1/openapi.json']) {
    assertJson(await server.request({ path, from: nextClient() }), 404, {
      code: 'not_found',
      message: `No API endpoint exists at "${path}".`,
      resolution: 'See /openapi.json for the published endpoints.',
    });
  }
});

rows('no uploads: a .wk1 spreadsheet sent as multipart/form-data is 415 to every POST endpoint, and nothing is stored', async () => {
  const boundary = 'spec-rows';
  const type = `multipart/form-data; boundary=${boundary}`;
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="budget.wk1"\r\nContent-Type: application/vnd.lotus-1-2-3\r\n\r\nWK1\r\n--${boundary}--\r\n`;
  for (const path of ['/api/v1/feedback', '/api/v1/roadmap', '/api/v1/checkout/create', '/api/checkout/create']) {
    const result = await server.request({ method: 'POST', path, headers: { 'content-type': type }, body, from: nextClient() });
    assertJson(result, 415, {
      code: 'unsupported_media_type',
      message: `The body must be sent as application/json, not "${type}".`,
      resolution: 'Send the body as JSON with the header Content-Type: application/json.',
    });
  }
  assert.is(server.storage.feedback.length, 0);
  assert.equal(
    (await server.request({ path: '/api/v1/roadmap', from: nextClient() }).then((r) => r.json() as { features: { vote_count: number }[] })).features.map((f) =>
      f.vote_count
    ),
    [0, 0, 0, 0],
  );
});

rows('feedback: every type, ratings 1 and 5, an email and an appVersion are 201 {success: true}', async () => {
  for (const [type, rating] of [['feature_request', 1], ['bug_report', 5], ['general', 3], ['review', 5]] as const) {
    const result = await post('/api/v1/feedback', { description: 'd', type, email: 'ann@example.com', appVersion: '2.4.1', rating });
    assert.is(result.status, 201, `${type}: ${result.text}`);
    assert.is(result.text, '{"success":true}');
  }
  assert.is(server.storage.feedback.length, 4);
});

rows('feedback: rating 0 and 6, an unknown type, a malformed email are 400 naming the field', async () => {
  const rating = 'Field "rating" must be an integer from 1 to 5.';
  for (
    const [body, message] of [
      [{ description: 'd', rating: 0 }, rating],
      [{ description: 'd', rating: 6 }, rating],
      [{ description: 'd', type: 'praise' }, 'Field "type" must be one of feature_request, bug_report, general, review.'],
      [{ description: 'd', email: 'ann' }, 'Field "email" must be an email address.'],
    ] as const
  ) {
    assertJson(await post('/api/v1/feedback', body), 400, { code: 'invalid_request', message, resolution: INVALID });
  }
  assert.is(server.storage.feedback.length, 0);
});

rows('feedback: an empty description (minimum length 1) is 400 description_required', async () => {
  assertJson(await post('/api/v1/feedback', { description: '' }), 400, {
    code: 'description_required',
    message: 'Field "description" is required and must not be blank.',
    resolution: 'Send a non-empty "description" string in the JSON body.',
  });
});

rows('roadmap vote: featureId 0, 1.5 or missing is 400; featureId 1 (the minimum) toggles', async () => {
  const atLeastOne = 'Field "featureId" must be an integer of at least 1.';
  for (
    const [body, message] of [
      [{ featureId: 0 }, atLeastOne],
      [{ featureId: 1.5 }, atLeastOne],
      [{}, 'Field "featureId" is required.'],
    ] as const
  ) {
    assertJson(await post('/api/v1/roadmap', body), 400, { code: 'invalid_request', message, resolution: INVALID });
  }
  assertJson(await post('/api/v1/roadmap', { featureId: 1 }), 200, { voted: true, vote_count: 1 });
});

rows('checkout create: every product and channel the spec lists is 200 {sessionId, url}; another value is 400', async () => {
  for (const product of ['standard', 'plus_addon', 'plus_bundle']) {
    for (const channel of ['store', 'msi']) {
      const result = await post('/api/v1/checkout/create', { product, channel });
      assert.is(result.status, 200, `${product} ${channel}: ${result.text}`);
      const { sessionId, url } = result.json() as { sessionId: string; url: string };
      assert.equal(Object.keys(result.json() as object), ['sessionId', 'url']);
      assert.is(url, `http://localhost:8080/checkout/simulator/${sessionId}`);
    }
  }
  assertJson(await post('/api/v1/checkout/create', { channel: 'web' }), 400, {
    code: 'invalid_request',
    message: 'Field "channel" must be one of store, msi.',
    resolution: INVALID,
  });
  assertJson(await post('/api/v1/checkout/create', { product: 'standard', coupon: 'x' }), 400, {
    code: 'invalid_request',
    message: 'Unknown field "coupon": this request accepts only product, channel.',
    resolution: INVALID,
  });
});

/** Creates a session for a product and presses a button of the simulator page (pay, delay). */
async function checkout(product: string, from: string): Promise<string> {
  const { sessionId } = (await post('/api/v1/checkout/create', { product }, from)).json() as { sessionId: string };
  return sessionId;
}
async function press(sessionId: string, action: string, from: string): Promise<void> {
  const result = await server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/${action}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    from,
  });
  assert.is(result.status, 303, result.text);
}
const status = async (sessionId: string, from: string) =>
  (await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}`, from })).json() as Record<string, unknown>;
// The simulator marks its keys sim/ (docs/licensing.md): none is a license.

rows('checkout status: a delayed payment is processing without keys, then paid', async () => {
  const me = nextClient();
  const sessionId = await checkout('standard', me);
  await press(sessionId, 'delay', me);
  assert.equal(await status(sessionId, me), { status: 'processing', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
  await press(sessionId, 'pay', me);
  assert.is((await status(sessionId, me))['status'], 'paid');
});

rows('checkout status: the Plus add-on issues a Plus key only; the Plus bundle issues both, licenseKey the standard one', async () => {
  const me = nextClient();
  const addon = await checkout('plus_addon', me);
  await press(addon, 'pay', me);
  const addonPaid = await status(addon, me);
  assert.is(addonPaid['standardLicenseKey'], null);
  assert.match(String(addonPaid['plusLicenseKey']), SIMULATOR_KEY_SHAPE);
  assert.is(addonPaid['licenseKey'], addonPaid['plusLicenseKey']);

  const bundle = await checkout('plus_bundle', me);
  await press(bundle, 'pay', me);
  const bundlePaid = await status(bundle, me);
  assert.match(String(bundlePaid['standardLicenseKey']), SIMULATOR_KEY_SHAPE);
  assert.match(String(bundlePaid['plusLicenseKey']), SIMULATOR_KEY_SHAPE);
  assert.is.not(bundlePaid['standardLicenseKey'], bundlePaid['plusLicenseKey']);
  assert.is(bundlePaid['licenseKey'], bundlePaid['standardLicenseKey']);
  assert.equal(await status(bundle, me), bundlePaid, 'the keys are issued once and read back the same');
});

rows('download: a client naming no platform gets the warning page, a Sec-CH-UA-Platform "Windows" hint the MSI, on the alias too', async () => {
  const { msiUrl } = server.content.download;
  const nonWindowsUrl = server.content.download.nonWindowsUrl ?? 'http://localhost:8080/windows-only';
  for (const prefix of ['/api/v1', '/api']) {
    const bare = await server.request({ path: `${prefix}/download`, from: nextClient() });
    assert.is(bare.status, 302);
    assert.is(bare.headers['location'], nonWindowsUrl);
    const hinted = await server.request({ path: `${prefix}/download`, headers: { 'sec-ch-ua-platform': '"Windows"' }, from: nextClient() });
    assert.is(hinted.headers['location'], msiUrl);
    const forced = await server.request({ path: `${prefix}/download?force=1&source=docs`, from: nextClient() });
    assert.is(forced.headers['location'], msiUrl);
  }
  assert.is.not(nonWindowsUrl, msiUrl);
});

rows.run();
