/**
 * One request per public endpoint over a real socket (node:http through adapters/node), so that each is
 * seen once as a client sees it while the other HTTP tests ask the app in process (test/_in-process.ts):
 * the status, the Content-Type, the exact body, and a Content-Length the body matches. A GET is asked of
 * the same app in process too, and the two answers agree on the body and on every header that does not
 * count requests. The last test fails when an endpoint of the route table or a single path of the app
 * (core/http/paths.ts) has no request here.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { API_ROUTES, V1_PREFIX } from '../../core/api.ts';
import { APP_PATHS } from '../../core/http/paths.ts';
import type { HttpInit, HttpResult } from '../_client.ts';
import { handleHttp } from '../_in-process.ts';
import { startTestServer, type TestServer } from '../_setup.ts';

const test = suite<{ server: TestServer; asked: Set<string> }>('every public endpoint over a real socket');
const JSON_TYPE = { 'content-type': 'application/json' };
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';
/** A key of the docs' test vector: well formed, never issued by this server. */
const FOREIGN_KEY =
  '202GK-N4ZFF-SPXBH-S5Q94-Q6YRP-EX2MH-7RQ99-K6NHH-TM0W7-M04FT-NPEKP-20BCM-Z4DYN-BHB34-NA23S-HMYH6-VDF90-Z8TFG-9SVN6-ZDZQR-8BE0P-BYH9M-579CT-FN488';
/** Headers that differ from one request to the next (the request id, the quota left) or that node:http adds. */
const PER_REQUEST = /^(x-request-id|ratelimit(-.*)?|date|connection|keep-alive|content-length|transfer-encoding)$/;

test.before(async (context) => {
  context.server = await startTestServer();
  context.asked = new Set();
});
test.after(async ({ server }) => server.close());

/** Sends one request over the socket, notes its endpoint, and checks the Content-Length node:http sent. */
async function ask({ server, asked }: { server: TestServer; asked: Set<string> }, init: HttpInit): Promise<HttpResult> {
  asked.add(`${init.method ?? 'GET'} ${init.path.split('?')[0]}`);
  const answer = await server.request(init);
  assert.is(answer.headers['content-length'], String(Buffer.byteLength(answer.text)), `${init.path}: Content-Length`);
  return answer;
}

const withoutPerRequest = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !PER_REQUEST.test(name)));

for (
  const [path, status, type, headers] of [
    ['/api/v1/pricing', 200, 'application/json', {}],
    ['/api/v1/version', 200, 'application/json', {}],
    ['/api/v1/download', 302, undefined, { 'user-agent': WINDOWS }],
    ['/api/v1/roadmap', 200, 'application/json', {}],
    ['/api/v1/changelog', 200, 'application/feed+json', {}],
    ['/api/v1/changelog.atom', 200, 'application/atom+xml; charset=utf-8', {}],
    ['/llms.txt', 200, 'text/plain; charset=utf-8', {}],
    ['/openapi.json', 200, 'application/json', {}],
    ['/healthz', 200, 'application/json', {}],
    ['/readyz', 200, 'application/json', {}],
    ['/windows-only', 200, 'text/html; charset=utf-8', {}],
  ] as const
) {
  test(`GET ${path}: ${status}${type ? ` ${type}` : ''}, the body and headers the app gives in process`, async (context) => {
    const init = { path, headers };
    const answer = await ask(context, init);
    const inProcess = await handleHttp(context.server.app.handle, init);
    assert.is(answer.status, status);
    assert.is(answer.headers['content-type'], type);
    assert.is(answer.text, inProcess.text);
    assert.equal(withoutPerRequest(answer.headers), withoutPerRequest(inProcess.headers));
  });
}

test('GET /healthz and /readyz: their exact bodies', async (context) => {
  assert.is((await ask(context, { path: '/healthz' })).text, '{"status":"ok"}');
  assert.is((await ask(context, { path: '/readyz' })).text, '{"status":"ready"}');
});

test('POST /api/v1/feedback: 201 {"success":true}', async (context) => {
  const answer = await ask(context, { method: 'POST', path: '/api/v1/feedback', headers: JSON_TYPE, body: '{"description":"Converts fine"}' });
  assert.is(answer.status, 201);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.text, '{"success":true}');
});

test('POST /api/v1/installs: 204 with no body, no Content-Type and no Content-Length (RFC 9110 section 8.6)', async (context) => {
  const init = {
    method: 'POST',
    path: '/api/v1/installs',
    headers: JSON_TYPE,
    body: '{"channel":"stable","version":"2.4.1","installId":"AAECAwQFBgcICQoLDA0ODw"}',
  };
  context.asked.add('POST /api/v1/installs');
  const answer = await context.server.request(init);
  assert.equal([answer.status, answer.text, answer.headers['content-type'], answer.headers['content-length']], [204, '', undefined, undefined]);
  assert.is(answer.headers['ratelimit-limit'], '120', 'metered: the rate-limit headers');
});

test('POST /api/v1/roadmap: a vote, 200 with the count', async (context) => {
  const answer = await ask(context, { method: 'POST', path: '/api/v1/roadmap', headers: JSON_TYPE, body: '{"featureId":1}' });
  assert.is(answer.status, 200);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.text, '{"voted":true,"vote_count":1}');
});

test('POST /api/v1/checkout/create, then GET /api/v1/checkout/status: a session, pending without keys', async (context) => {
  const created = await ask(context, { method: 'POST', path: '/api/v1/checkout/create', headers: JSON_TYPE, body: '{"product":"standard"}' });
  assert.is(created.status, 200);
  assert.is(created.headers['content-type'], 'application/json');
  const { sessionId } = created.json() as { sessionId: string };
  assert.match(sessionId, /^cs_sim_[A-Za-z0-9_-]{32}$/);
  assert.is(created.text, JSON.stringify({ sessionId, url: `http://localhost:8080/checkout/simulator/${sessionId}` }));
  const status = await ask(context, { path: `/api/v1/checkout/status?session_id=${sessionId}` });
  assert.is(status.status, 200);
  assert.is(status.headers['content-type'], 'application/json');
  assert.is(status.text, '{"status":"pending","licenseKey":null,"standardLicenseKey":null,"plusLicenseKey":null}');
});

test('POST /api/v1/licenses/validate: a key this server never issued is unknown', async (context) => {
  const answer = await ask(context, {
    method: 'POST',
    path: '/api/v1/licenses/validate',
    headers: JSON_TYPE,
    body: JSON.stringify({ licenseKey: FOREIGN_KEY }),
  });
  assert.is(answer.status, 200);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.text, '{"standing":"unknown","product":null,"validUntil":null}');
});

test('POST /api/v1/licenses/resend: 202, the same answer for any address', async (context) => {
  const answer = await ask(context, { method: 'POST', path: '/api/v1/licenses/resend', headers: JSON_TYPE, body: '{"email":"ada@example.com"}' });
  assert.is(answer.status, 202);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.text, '{"accepted":true,"message":"If this address has valid licenses on file, a message with them is on its way to it."}');
});

test('POST /api/v1/webhooks/gateway: 404 notifications_unavailable on the simulator', async (context) => {
  const answer = await ask(context, { method: 'POST', path: '/api/v1/webhooks/gateway', headers: JSON_TYPE, body: '{}' });
  assert.is(answer.status, 404);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.equal(answer.json(), {
    code: 'notifications_unavailable',
    message: 'The payment gateway of this server (simulator) sends no notifications, so this path accepts none.',
    resolution: 'Point the provider at this path only when the server runs a gateway that sends notifications.',
  });
});

test('GET and POST /api/v1/unsubscribe: a token this server never gave is 400 invalid_parameter', async (context) => {
  for (const method of ['GET', 'POST']) {
    const answer = await ask(context, { method, path: '/api/v1/unsubscribe?token=x' });
    assert.is(answer.status, 400, method);
    assert.is(answer.headers['content-type'], 'application/json');
    assert.equal(answer.json(), {
      code: 'invalid_parameter',
      message: 'Query parameter "token" must be the token of an unsubscribe address, as the mail gave it.',
      resolution: 'Fix the query parameter as the message says; /openapi.json describes the allowed values.',
    }, method);
  }
});

test('every endpoint of the route table and every single path of the app was asked above', ({ asked }) => {
  const endpoints = [
    ...API_ROUTES.map((route) => `${route.method} ${route.versioned ? V1_PREFIX : ''}${route.path}`),
    ...APP_PATHS.map((path) => `GET ${path}`),
  ];
  assert.equal([...asked].sort(), [...new Set(endpoints)].sort());
});

test.run();
