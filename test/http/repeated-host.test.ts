/**
 * Two Host headers are refused (RFC 9112 section 3.2: "a server MUST respond with a 400 to any HTTP/1.1
 * request message that ... contains more than one Host header field line"): node:http keeps the first
 * and drops the rest, so the server counts them itself. The 400 is the API's JSON error with the
 * rate-limit headers, counted against the client's quota, over a real socket.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../_setup.ts';
import { exchange as exchangeOn } from '../server/_raw-http.ts';

const test = suite('repeated Host');
let server: TestServer;

test.before.each(async () => {
  server = await startTestServer();
});
test.after.each(async () => {
  await server.close();
});

const exchange = (bytes: string, from: string) => exchangeOn(server.port, bytes, from);

for (const [name, second] of [['Host', 'Host: other.example'], ['host (another case)', 'hOST: t']] as const) {
  test(`two Host headers (the second as ${name}): 400 malformed_request as JSON with the rate-limit headers, connection closed`, async () => {
    const answer = await exchange(`GET /api/v1/pricing HTTP/1.1\r\nHost: t\r\n${second}\r\n\r\n`, '127.0.12.1');
    assert.is(answer.status, 400);
    assert.is(answer.headers['content-type'], 'application/json');
    assert.is(answer.headers['connection'], 'close');
    assert.is(answer.headers['ratelimit'], '"public-api";r=119;t=60');
    assert.equal(JSON.parse(answer.body), {
      code: 'malformed_request',
      message: 'An HTTP request must carry one Host header, not 2.',
      resolution: 'Send a well-formed HTTP/1.1 request; most HTTP client libraries do.',
    });
  });
}

test('one Host header is served; so is an HTTP/1.0 request with one', async () => {
  const one = await exchange('GET /api/v1/version HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n', '127.0.12.2');
  assert.is(one.status, 200);
  const old = await exchange('GET /api/v1/version HTTP/1.0\r\nHost: t\r\n\r\n', '127.0.12.3');
  assert.is(old.status, 200);
});

test.run();
