/**
 * Requests node:http would answer itself (no Host, an unknown Expect) or drop (CONNECT): each is answered
 * with the JSON error body and the rate-limit headers, and counted against the client's quota.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { startTestServer, type TestServer } from '../_setup.ts';
import { exchange as exchangeOn, openConnection } from '../server/_raw-http.ts';

const odd = suite('odd requests over HTTP');
let server: TestServer;

odd.before.each(async () => {
  server = await startTestServer({}, { trustedProxies: parseCidrList('127.0.11.9') });
});
odd.after.each(async () => {
  await server.close();
});

/** Sends raw bytes from an address and returns the answer the server sent before closing. */
const exchange = (bytes: string, from: string) => exchangeOn(server.port, bytes, from);

/** The quota the client has left, seen on its next request. */
async function remainingAfter(from: string): Promise<string | undefined> {
  return (await server.request({ path: '/api/v1/version', from })).headers['ratelimit-remaining'];
}

odd('HTTP/1.1 without Host: 400 malformed_request as JSON with the rate-limit headers, counted, connection closed', async () => {
  const answer = await exchange('GET /api/v1/pricing HTTP/1.1\r\n\r\n', '127.0.11.1');
  assert.is(answer.status, 400);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.headers['connection'], 'close');
  assert.is(answer.headers['ratelimit'], '"public-api";r=119;t=60');
  assert.is(answer.headers['x-content-type-options'], 'nosniff');
  assert.equal(JSON.parse(answer.body), {
    code: 'malformed_request',
    message: 'An HTTP/1.1 request must carry a Host header.',
    resolution: 'Send a well-formed HTTP/1.1 request; most HTTP client libraries do.',
  });
  assert.is(await remainingAfter('127.0.11.1'), '118');
});

odd('HTTP/1.0 without Host is served (Host is required of HTTP/1.1 only)', async () => {
  const answer = await exchange('GET /api/v1/version HTTP/1.0\r\n\r\n', '127.0.11.2');
  assert.is(answer.status, 200);
});

odd('HEAD without Host: the 400 has no body', async () => {
  const answer = await exchange('HEAD /api/v1/pricing HTTP/1.1\r\n\r\n', '127.0.11.3');
  assert.is(answer.status, 400);
  assert.is(answer.body, '');
});

odd('Expect: something-else: 417 expectation_failed as JSON with the rate-limit headers, counted', async () => {
  const answer = await exchange(
    'POST /api/v1/feedback HTTP/1.1\r\nHost: t\r\nExpect: something-else\r\nContent-Type: application/json\r\nContent-Length: 19\r\n\r\n',
    '127.0.11.4',
  );
  assert.is(answer.status, 417);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.headers['ratelimit-remaining'], '119');
  assert.equal(JSON.parse(answer.body), {
    code: 'expectation_failed',
    message: 'The Expect header "something-else" cannot be met; only 100-continue is understood.',
    resolution: 'Send the request without the Expect header (or with Expect: 100-continue).',
  });
  assert.is(await remainingAfter('127.0.11.4'), '118');
  assert.is(server.storage.feedback.length, 0);
});

odd('Expect: 100-continue still works', async () => {
  const connection = await openConnection(server.port, '127.0.11.5');
  connection.socket.write('POST /api/v1/feedback HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 19\r\n\r\n');
  await new Promise<void>((resolve) => connection.socket.once('data', () => resolve()));
  assert.match(connection.received(), /^HTTP\/1\.1 100 Continue\r\n/);
  connection.socket.write('{"description":"x"}');
  await new Promise<void>((resolve) => {
    const check = () => (connection.received().includes('201 Created') ? resolve() : connection.socket.once('data', check));
    check();
  });
  connection.socket.destroy();
  assert.is(server.storage.feedback.length, 1);
});

odd('CONNECT: 405 method_not_allowed as JSON with the rate-limit headers, counted, connection closed', async () => {
  const answer = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', '127.0.11.6');
  assert.is(answer.status, 405);
  assert.is(answer.headers['connection'], 'close');
  assert.is(answer.headers['ratelimit-remaining'], '119');
  assert.equal(JSON.parse(answer.body), {
    code: 'method_not_allowed',
    message: 'CONNECT is not allowed: this server is not a proxy.',
    resolution: 'Use one of the methods in the Allow header.',
  });
  assert.is(await remainingAfter('127.0.11.6'), '118');
});

odd('behind a trusted proxy, an odd request counts against the forwarded client', async () => {
  const answer = await exchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\nX-Forwarded-For: 203.0.113.50\r\n\r\n', '127.0.11.9');
  assert.is(answer.headers['ratelimit-remaining'], '119');
  const next = await server.request({ path: '/api/v1/version', from: '127.0.11.9', headers: { 'x-forwarded-for': '203.0.113.50' } });
  assert.is(next.headers['ratelimit-remaining'], '118');
  assert.is(await remainingAfter('127.0.11.9'), '119', "the proxy's own quota is untouched");
});

odd('absolute-form request target (RFC 9112 3.2.2): served as its path and query, Host not consulted', async () => {
  const answer = await exchange('GET http://127.0.0.1/api/v1/version HTTP/1.1\r\nHost: elsewhere.example\r\nConnection: close\r\n\r\n', '127.0.11.10');
  assert.is(answer.status, 200);
  assert.is(answer.headers['ratelimit'], '"public-api";r=119;t=60');
  assert.equal(Object.keys(JSON.parse(answer.body)), ['version', 'downloadUrl']);
});

odd('absolute-form keeps its query, and an https target without a path is /', async () => {
  const download = await exchange(
    'GET HTTPS://127.0.0.1:8080/api/v1/download?force=1&source=wrk HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n',
    '127.0.11.11',
  );
  assert.is(download.status, 302);
  const root = await exchange('GET http://127.0.0.1 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n', '127.0.11.12');
  assert.is(root.status, 404);
  assert.is(JSON.parse(root.body).message, 'No API endpoint exists at "/".');
});

odd.run();
