/**
 * Bad input as it arrives on a real socket (node:http through adapters/node), every answer checked against
 * /openapi.json: a body over the limit, sized or chunked, is 413 and closes the connection; a client that
 * leaves mid-body, a request line that is no HTTP and headers over 16 KiB leave the server serving, the
 * refusals as JSON with the rate-limit headers. Bad bodies the app reads are test/http/bad-input.test.ts.
 */
import { connect } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { withValidation } from '../_openapi.ts';
import { startTestServer, type TestServer } from '../_setup.ts';

const badInput = suite('bad input on the wire');
let server: TestServer;
let client = 10;
const from = () => `127.0.1.${++client}`;

badInput.before.each(async () => {
  server = await withValidation(await startTestServer());
});
badInput.after.each(async () => {
  await server.close();
});

/** After any bad request, the server still answers a good one. */
async function assertStillServing(): Promise<void> {
  const ok = await server.request({ path: '/api/v1/version', from: from() });
  assert.is(ok.status, 200);
}

const post = (path: string, body: string | Buffer, contentType = 'application/json') =>
  server.request({ method: 'POST', path, headers: { 'content-type': contentType }, body, from: from() });

badInput('a 1 MB body: 413 payload_too_large, the connection is closed, the server keeps serving', async () => {
  const result = await post('/api/v1/feedback', JSON.stringify({ description: 'x'.repeat(1024 * 1024) }));
  assert.is(result.status, 413);
  assert.is(result.headers['connection'], 'close');
  assert.equal(result.json(), {
    code: 'payload_too_large',
    message: 'The request body is larger than the limit of 16384 bytes.',
    resolution: 'Send a smaller body; the limit is given in the message.',
  });
  assert.is(result.headers['ratelimit-limit'], '120');
  await assertStillServing();
});

badInput('a body of exactly 16384 bytes is read; one byte more is 413', async () => {
  const padded = (size: number) => {
    const base = '{"description":"x"}';
    return base.slice(0, -1) + ' '.repeat(size - base.length) + '}';
  };
  assert.is((await post('/api/v1/feedback', padded(16384))).status, 201);
  assert.is((await post('/api/v1/feedback', padded(16385))).status, 413);
});

badInput('a chunked body over the limit, with no Content-Length, is 413 too', async () => {
  const chunks = Array.from({ length: 40 }, () => 'x'.repeat(1000));
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: from() }, () => {
      socket.write('POST /api/v1/feedback HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
      for (const chunk of chunks) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      socket.write('0\r\n\r\n');
    });
    let data = '';
    socket.on('data', (d) => (data += d));
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
  assert.match(raw, /^HTTP\/1\.1 413 Payload Too Large\r\n/);
  assert.match(raw, '"code":"payload_too_large"');
  await assertStillServing();
});

badInput('a client that disconnects mid-body leaves the server serving', async () => {
  await new Promise<void>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: server.port }, () => {
      socket.write('POST /api/v1/feedback HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"desc');
      socket.destroy();
      resolve();
    });
  });
  await assertStillServing();
  assert.is(server.storage.feedback.length, 0);
});

/** Sends raw bytes and reads until the server closes the connection. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: server.port, localAddress: '127.0.7.1' }, () => socket.write(bytes));
    let data = '';
    socket.on('data', (d) => (data += d));
    socket.on('error', () => {});
    socket.on('close', () => resolve(data));
  });
}

/** The status line, the rate-limit headers and the JSON body of a raw answer. */
function parseRaw(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]));
  return { statusLine, headers, body: JSON.parse(body) as unknown };
}

badInput('a malformed request line: 400 malformed_request as JSON with rate-limit headers; the server keeps serving', async () => {
  const answer = parseRaw(await rawExchange('NOT HTTP AT ALL\r\n\r\n'));
  assert.is(answer.statusLine, 'HTTP/1.1 400 Bad Request');
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.headers['connection'], 'close');
  assert.is(answer.headers['ratelimit'], '"public-api";r=119;t=60');
  assert.equal(answer.body, {
    code: 'malformed_request',
    message: 'The request is not valid HTTP/1.1.',
    resolution: 'Send a well-formed HTTP/1.1 request; most HTTP client libraries do.',
  });
  await assertStillServing();
});

badInput('headers over 16 KiB: 431 headers_too_large as JSON, counted against the same client', async () => {
  const raw = await rawExchange(`GET /api/v1/pricing HTTP/1.1\r\nHost: t\r\nX-Big: ${'x'.repeat(17 * 1024)}\r\n\r\n`);
  const answer = parseRaw(raw);
  assert.is(answer.statusLine, 'HTTP/1.1 431 Request Header Fields Too Large');
  assert.is(answer.headers['ratelimit-remaining'], '119');
  assert.equal(answer.body, {
    code: 'headers_too_large',
    message: 'The request headers are larger than this server accepts.',
    resolution: 'Send fewer or smaller headers (cookies included) and retry.',
  });
  const next = await server.request({ path: '/api/v1/version', from: '127.0.7.1' });
  assert.is(next.headers['ratelimit-remaining'], '118');
});

badInput.run();
