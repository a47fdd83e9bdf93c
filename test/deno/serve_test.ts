/**
 * Deno tests of the Deno binding (`deno task test`): Deno.serve on 127.0.0.1, requests with fetch.
 */
import { deepEqual, equal } from 'node:assert/strict';
import { parseCidrList } from 'converter-site-api';
import { createDenoHandler } from 'converter-site-api/deno';
import type { FetchHandlerOptions } from 'converter-site-api/fetch';
import { createSiteApp } from '../../docs/examples/site.ts';

async function withServer(options: FetchHandlerOptions, run: (base: string) => Promise<void>): Promise<void> {
  const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: () => undefined }, createDenoHandler(await createSiteApp(), options));
  try {
    await run(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

async function remaining(base: string, forwardedFor?: string): Promise<string | null> {
  const response = await fetch(`${base}/api/v1/version`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
  await response.body?.cancel();
  return response.headers.get('ratelimit-remaining');
}

Deno.test('the client is the peer address; X-Forwarded-For is ignored without trusted proxies', async () => {
  await withServer({}, async (base) => {
    deepEqual([await remaining(base, '203.0.113.1'), await remaining(base, '203.0.113.2')], ['119', '118']);
  });
});

Deno.test('behind a trusted proxy, the client is the X-Forwarded-For address', async () => {
  await withServer({ trustedProxies: parseCidrList('127.0.0.1/32') }, async (base) => {
    const counts = [await remaining(base, '203.0.113.1'), await remaining(base, '203.0.113.2'), await remaining(base, '203.0.113.1')];
    deepEqual(counts, ['119', '119', '118']);
  });
});

Deno.test('a 1 MB body is 413 and the server keeps serving', async () => {
  await withServer({}, async (base) => {
    const big = await fetch(`${base}/api/v1/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x'.repeat(1024 * 1024) }),
    });
    equal(big.status, 413);
    equal(((await big.json()) as { code: string }).code, 'payload_too_large');
    equal(await remaining(base), '118');
  });
});
