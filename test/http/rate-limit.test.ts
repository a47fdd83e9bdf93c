/**
 * The public rate limit, in process (app.handle) with every answer checked against /openapi.json: 120
 * answers per client address, then 429 with Retry-After; the client resolved from X-Forwarded-For behind
 * a trusted proxy as the node adapter resolves it. Which peer the node adapter trusts is
 * test/http/forwarded-client.test.ts, on a real socket.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { withValidation } from '../_openapi.ts';

const limit = suite('rate limit over HTTP');
let server: InProcessServer | undefined;

limit.after.each(async () => {
  await server?.close();
});

limit('one client address: 120 answers, then 429 with Retry-After; another address is unaffected; the window resets', async () => {
  server = await withValidation(await startInProcessServer());
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

limit('behind a trusted proxy, X-Forwarded-For entries with a port count as their address, not as the proxy', async () => {
  server = await withValidation(await startInProcessServer({}, { trustedProxies: parseCidrList('127.0.4.0/24') }));
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
  server = await withValidation(await startInProcessServer({}, { trustedProxies: parseCidrList('127.0.6.1') }));
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
