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

/**
 * An upstream that answers as workerd does to a body over the Worker's limit: it reads limit + 1 bytes,
 * answers 413, and closes the connection, unread bytes and all.
 */
async function earlyAnswerServer(limit: number, seen: string[]): Promise<Server> {
  const server = createServer((request, response) => {
    seen.push(request.headers['content-length'] ?? 'none');
    let size = 0;
    const answer = () => {
      response.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      response.end('{"code":"payload_too_large"}', () => request.complete || request.socket.destroy());
    };
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit && !response.headersSent) answer();
    });
    request.on('end', () => response.headersSent || answer());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

test('given the body limit, a 1 MB body reaches the Worker as limit + 1 bytes, and its 413 reaches the client every time', async () => {
  const seen: string[] = [];
  const upstream = await earlyAnswerServer(16384, seen);
  const reported: unknown[] = [];
  const front = await startEdgeFront(Promise.resolve({ port: (upstream.address() as AddressInfo).port }), 0, '127.0.0.1', (e) => reported.push(e), 16384);
  try {
    const body = JSON.stringify({ description: 'x'.repeat(1024 * 1024) });
    for (let i = 0; i < 20; i++) {
      const answer = await sendRequest(front.url, {
        method: 'POST',
        path: '/api/v1/feedback',
        headers: { 'content-type': 'application/json' },
        body,
        from: '127.0.0.15',
      });
      assert.equal([answer.status, answer.text], [413, '{"code":"payload_too_large"}']);
    }
    assert.equal([...new Set(seen)], ['16385']);
    assert.equal(reported, []);
    // A body under the limit passes whole.
    const small = await sendRequest(front.url, {
      method: 'POST',
      path: '/x',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      from: '127.0.0.15',
    });
    assert.is(small.status, 413);
    assert.is(seen.at(-1), '7');
  } finally {
    await front.close();
    await new Promise((resolve) => upstream.close(resolve));
  }
});

test.run();
