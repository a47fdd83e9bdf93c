import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createFetchHandler, headerMap } from '../../adapters/fetch/index.ts';
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

test.run();
