import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFetchHandler, headerMap, toWebResponse } from '../../adapters/fetch/index.ts';
import { createTestApp } from '../_setup.ts';

test('the header map reads web Headers by lower-case name, on demand, and lists them like node:http', () => {
  const map = headerMap(new Headers({ 'Content-Type': 'application/json', Origin: 'https://www.example.com', 'X-Multi': 'a' }));
  assert.is(map['content-type'], 'application/json');
  assert.is(map['origin'], 'https://www.example.com');
  assert.is(map['user-agent'], undefined);
  assert.ok('x-multi' in map);
  assert.not.ok('accept' in map);
  assert.equal({ ...map }, { 'content-type': 'application/json', origin: 'https://www.example.com', 'x-multi': 'a' });
});

test('a GET on memory storage is answered without a promise; a POST waits for its body', async () => {
  const t = await createTestApp();
  const handle = createFetchHandler(t.app);
  const pricing = handle(new Request('http://localhost/api/v1/pricing'), '203.0.113.1');
  assert.ok(pricing instanceof Response);
  assert.is(pricing.status, 200);
  assert.is(pricing.headers.get('ratelimit'), '"public-api";r=119;t=60');
  const feedback = handle(
    new Request('http://localhost/api/v1/feedback', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"description":"x"}' }),
    '203.0.113.1',
  );
  assert.ok(feedback instanceof Promise);
  const answer = await feedback;
  assert.is(answer.status, 201);
  assert.equal(await answer.json(), { success: true });
  assert.is(answer.headers.get('ratelimit-remaining'), '118');
});

test('encoded bodies reach the client byte for byte: a BOM, bytes that are not UTF-8, no Content-Type', async () => {
  const bytes = async (response: Response) => [...new Uint8Array(await response.arrayBuffer())];
  const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);
  const withBom = toWebResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: bom });
  assert.equal(await bytes(withBom), [...bom]);
  // Twice: the second answer of the same bytes comes from the decoded cache.
  assert.equal(await bytes(toWebResponse({ status: 200, headers: { 'content-type': 'application/json' }, body: bom })), [...bom]);
  const binary = new Uint8Array([0xff, 0xfe, 0x00, 0x80]);
  assert.equal(await bytes(toWebResponse({ status: 200, headers: { 'content-type': 'application/octet-stream' }, body: binary })), [...binary]);
  const untyped = toWebResponse({ status: 200, headers: {}, body: new TextEncoder().encode('plain') });
  assert.is(untyped.headers.get('content-type'), null);
  assert.equal(await bytes(untyped), [...new TextEncoder().encode('plain')]);
});

test.run();
