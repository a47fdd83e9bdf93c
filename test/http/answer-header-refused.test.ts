/**
 * A release address stored with a CR (before fields were checked, issue 31), over a real socket: node:http
 * refuses the Location header, so each download is a logged 500 with the request id and the rate-limit
 * headers, and the server keeps serving. The rest of the vendor's second week is in process
 * (test/http/releases-week.test.ts).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type OperatorServer, startOperatorServer } from '../_operator.ts';

const test = suite('an answer header node:http refuses');
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

let running: OperatorServer;
/** What the listener reported (the standalone server logs it). */
let reported: string[];
test.before.each(async () => {
  reported = [];
  running = await startOperatorServer({ rateLimit: { name: 'test', limit: 1e9, windowSeconds: 60 } }, { onError: (error) => reported.push(String(error)) });
});
test.after.each(() => running.close());

test('an address stored with a CR (before fields were checked) costs its downloads a logged 500; the server keeps serving', async () => {
  const { server } = running;
  await server.storage.change((tx) =>
    tx.releases.publishRelease({
      version: '2.5.0',
      msiUrl: `${MSI('2.5.0')}\r`,
      notesUrl: null,
      rolloutBasisPoints: 10000,
      publishedAt: server.clock.now(),
    })
  );
  server.clock.advance(1000);
  for (let i = 0; i < 3; i++) {
    const download = await server.request({ path: '/api/v1/download', headers: { 'user-agent': WINDOWS } });
    assert.is(download.status, 500);
    assert.equal(download.json(), {
      code: 'internal_error',
      message: 'The server failed to handle the request.',
      resolution: 'Retry later; if the problem persists, contact support.',
    });
    assert.ok(download.headers['x-request-id'], 'the request id says which request failed');
    assert.ok(download.headers['ratelimit-policy'], 'the rate-limit headers stay');
  }
  assert.is(reported.length, 3);
  assert.match(reported[0]!, /^Error: a header of the answer \(status 302, request [\w-]+\) was refused; answered 500 instead: TypeError \[ERR_INVALID_CHAR\]/);
  assert.is((await server.request({ path: '/api/v1/pricing' })).status, 200);
  // Pulling it ends the 500s: the baseline is served again.
  await running.call('/releases/2.5.0/pull', { method: 'POST' });
  const download = await server.request({ path: '/api/v1/download', headers: { 'user-agent': WINDOWS } });
  assert.is(download.headers['location'], server.content.download.msiUrl);
});

test.run();
