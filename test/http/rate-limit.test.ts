import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { withValidation } from '../_openapi.ts';
import { startTestServer, type TestServer } from '../_setup.ts';

const limit = suite('rate limit over HTTP');
let server: TestServer | undefined;

limit.after.each(async () => {
  await server?.close();
});

limit('one client address: 120 answers, then 429 with Retry-After; another address is unaffected; the window resets', async () => {
  server = await withValidation(await startTestServer());
  const statuses: number[] = [];
  for (let i = 0; i < 120; i++) statuses.push((await server.request({ path: '/api/v1/pricing', from: '127.0.2.1' })).status);
  assert.equal([...new Set(statuses)], [200]);
  server.clock.advance(30_000);
  const limited = await server.request({ path: '/api/v1/pricing', from: '127.0.2.1' });
  assert.is(limited.status, 429);
  assert.is(limited.headers['retry-after'], '30');
  assert.is(limited.headers['ratelimit'], '"public-api";r=0;t=30');
  assert.is(limited.headers['ratelimit-remaining'], '0');
  assert.is(limited.headers['ratelimit-reset'], '30');
  assert.equal(limited.json(), {
    code: 'rate_limited',
    message: 'Too many requests: the limit is 120 per 60 seconds per client.',
    resolution: 'Wait 30 seconds (see Retry-After), then retry.',
  });
  const other = await server.request({ path: '/api/v1/pricing', from: '127.0.2.2' });
  assert.is(other.status, 200);
  assert.is(other.headers['ratelimit-remaining'], '119');
  server.clock.advance(30_000);
  const again = await server.request({ path: '/api/v1/pricing', from: '127.0.2.1' });
  assert.is(again.status, 200);
  assert.is(again.headers['ratelimit'], '"public-api";r=119;t=60');
});

limit('X-Forwarded-For is ignored when no proxy is trusted', async () => {
  server = await withValidation(await startTestServer());
  for (let i = 0; i < 120; i++) {
    await server.request({ path: '/llms.txt', from: '127.0.3.1', headers: { 'x-forwarded-for': `198.51.100.${i}` } });
  }
  const limited = await server.request({ path: '/llms.txt', from: '127.0.3.1', headers: { 'x-forwarded-for': '198.51.100.250' } });
  assert.is(limited.status, 429);
});

limit('behind a trusted proxy, the rightmost untrusted X-Forwarded-For address is the client', async () => {
  server = await withValidation(await startTestServer({}, { trustedProxies: parseCidrList('127.0.4.0/24, 10.0.0.0/8') }));
  for (let i = 0; i < 120; i++) {
    await server.request({ path: '/llms.txt', from: '127.0.4.1', headers: { 'x-forwarded-for': '203.0.113.9, 10.1.2.3' } });
  }
  const sameClient = await server.request({
    path: '/llms.txt',
    from: '127.0.4.2',
    headers: { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' },
  });
  assert.is(sameClient.status, 429);
  const otherClient = await server.request({ path: '/llms.txt', from: '127.0.4.1', headers: { 'x-forwarded-for': '203.0.113.10' } });
  assert.is(otherClient.status, 200);
  const untrustedPeer = await server.request({ path: '/llms.txt', from: '127.0.5.1', headers: { 'x-forwarded-for': '203.0.113.9' } });
  assert.is(untrustedPeer.status, 200);
});

limit('behind a trusted proxy, X-Forwarded-For entries with a port count as their address, not as the proxy', async () => {
  server = await withValidation(await startTestServer({}, { trustedProxies: parseCidrList('127.0.4.0/24') }));
  const remaining = async (xff?: string) => {
    const headers: Record<string, string> = xff === undefined ? {} : { 'x-forwarded-for': xff };
    return (await server!.request({ path: '/llms.txt', from: '127.0.4.1', headers })).headers['ratelimit-remaining'];
  };
  assert.is(await remaining('203.0.113.7:5555'), '119');
  assert.is(await remaining('203.0.113.7:6666'), '118');
  assert.is(await remaining('203.0.113.7'), '117');
  assert.is(await remaining('[2001:db8::7]:443'), '119');
  assert.is(await remaining('2001:db8::8'), '118', 'the same /64');
  assert.is(await remaining(), '119', "the proxy's own bucket is untouched");
});

limit('votes follow the resolved client behind a trusted proxy', async () => {
  server = await withValidation(await startTestServer({}, { trustedProxies: parseCidrList('127.0.6.1') }));
  const vote = (xff: string) =>
    server!.request({
      method: 'POST',
      path: '/api/v1/roadmap',
      from: '127.0.6.1',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
      body: '{"featureId":1}',
    });
  assert.equal((await vote('198.51.100.1')).json(), { voted: true, vote_count: 1 });
  assert.equal((await vote('198.51.100.2')).json(), { voted: true, vote_count: 2 });
  assert.equal((await vote('198.51.100.1')).json(), { voted: false, vote_count: 1 });
});

limit.run();
