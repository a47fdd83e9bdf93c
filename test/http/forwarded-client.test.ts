/**
 * Which peer the node adapter trusts for X-Forwarded-For (adapters/node/odd-requests.ts's clientOf), over
 * a real socket, as the rate limit sees the client: the header is ignored from a peer no trusted range
 * holds, and behind a trusted proxy the rightmost untrusted address is the client. Every answer is checked
 * against /openapi.json. The rest of the rate limit is in process (test/http/rate-limit.test.ts).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { withValidation } from '../_openapi.ts';
import { startTestServer, type TestServer } from '../_setup.ts';

const limit = suite('the forwarded client over a real socket');
let server: TestServer | undefined;

limit.after.each(async () => {
  await server?.close();
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

limit.run();
