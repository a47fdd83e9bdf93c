/**
 * The local front of `npm run start:workers` (scripts/edge-front.ts) over a stand-in upstream that echoes
 * what it received: CF-Connecting-IP is always the connecting socket's address, bodies and statuses pass
 * through, and an upstream that cannot be reached is answered with a JSON 500.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectingIp, startEdgeFront } from '../../scripts/edge-front.ts';
import { sendRequest } from '../_client.ts';
import { freePort } from '../_spawn.ts';

async function echoServer(): Promise<Server> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      response.writeHead(207, { 'content-type': 'application/json', 'x-upstream': 'yes' });
      response.end(JSON.stringify({ ip: request.headers['cf-connecting-ip'], method: request.method, url: request.url, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

test('IPv4-mapped IPv6 socket addresses are given as IPv4', () => {
  assert.is(connectingIp('::ffff:203.0.113.7'), '203.0.113.7');
  assert.is(connectingIp('2001:db8::1'), '2001:db8::1');
  assert.is(connectingIp('127.0.0.3'), '127.0.0.3');
});

test('CF-Connecting-IP is the socket address whatever the client sends; the rest passes through', async () => {
  const upstream = await echoServer();
  const front = await startEdgeFront(Promise.resolve({ port: (upstream.address() as AddressInfo).port }), 0, '127.0.0.1', () => undefined);
  try {
    const answer = await sendRequest(front.url, {
      method: 'POST',
      path: '/api/v1/feedback?x=1',
      headers: { 'cf-connecting-ip': '198.51.100.1', 'content-type': 'application/json' },
      body: '{"description":"hi"}',
      from: '127.0.0.12',
    });
    assert.is(answer.status, 207);
    assert.is(answer.headers['x-upstream'], 'yes');
    assert.equal(answer.json(), { ip: '127.0.0.12', method: 'POST', url: '/api/v1/feedback?x=1', body: '{"description":"hi"}' });
  } finally {
    await front.close();
    await new Promise((resolve) => upstream.close(resolve));
  }
});

test('an upstream that cannot be reached is a JSON 500, reported, and the front keeps serving', async () => {
  const reported: unknown[] = [];
  const front = await startEdgeFront(Promise.resolve({ port: await freePort() }), 0, '127.0.0.1', (error) => reported.push(error));
  try {
    for (const from of ['127.0.0.13', '127.0.0.14']) {
      const answer = await sendRequest(front.url, { path: '/api/v1/pricing', from });
      assert.is(answer.status, 500);
      assert.is(answer.headers['cache-control'], 'no-store');
      assert.equal(answer.json(), {
        code: 'internal_error',
        message: 'The server failed to handle the request.',
        resolution: 'Retry later; if the problem persists, contact support.',
      });
    }
    assert.is(reported.length, 2);
  } finally {
    await front.close();
  }
});

test.run();
