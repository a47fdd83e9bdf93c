/**
 * CORS over a real socket, as a browser on the website's origin meets it: the preflight of a JSON POST
 * that carries the page's own X-Request-Id is allowed, and the answer exposes the headers a page reads.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';

const cors = suite('CORS over HTTP');
let server: InProcessServer | undefined;

cors.after.each(async () => {
  await server?.close();
  server = undefined;
});

const SITE = 'https://www.example.com';

cors('the preflight of a POST with Content-Type and X-Request-Id allows both headers', async () => {
  server = await startInProcessServer({ corsOrigins: [SITE] });
  const answer = await server.request({
    method: 'OPTIONS',
    path: '/api/v1/feedback',
    headers: { origin: SITE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-request-id' },
  });
  assert.is(answer.status, 204);
  assert.is(answer.headers['access-control-allow-origin'], SITE);
  assert.is(answer.headers['access-control-allow-methods'], 'POST, OPTIONS');
  assert.is(answer.headers['access-control-allow-headers'], 'Content-Type, X-Request-Id');
  assert.is(answer.headers['access-control-max-age'], '600');
  assert.is(answer.text, '');
});

cors("the POST that follows keeps the page's request id and exposes it", async () => {
  server = await startInProcessServer({ corsOrigins: [SITE] });
  const answer = await server.request({
    method: 'POST',
    path: '/api/v1/feedback',
    headers: { origin: SITE, 'content-type': 'application/json', 'x-request-id': 'page-7' },
    body: JSON.stringify({ description: 'works' }),
  });
  assert.is(answer.status, 201);
  assert.is(answer.text, '{"success":true}');
  assert.is(answer.headers['x-request-id'], 'page-7');
  assert.is(answer.headers['access-control-allow-origin'], SITE);
  assert.ok(answer.headers['access-control-expose-headers']?.split(', ').includes('X-Request-Id'));
});

cors('an origin not listed gets no preflight fields', async () => {
  server = await startInProcessServer({ corsOrigins: [SITE] });
  const answer = await server.request({
    method: 'OPTIONS',
    path: '/api/v1/feedback',
    headers: { origin: 'https://other.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-request-id' },
  });
  assert.is(answer.status, 204);
  assert.is(answer.headers['access-control-allow-headers'], undefined);
  assert.is(answer.headers['access-control-allow-origin'], undefined);
});

cors.run();
