/**
 * The client runs unchanged in a Cloudflare Worker: a Worker bundled with it (test/client/fixture/worker.ts)
 * runs under workerd (scripts/workerd.ts, whose outbound network reaches 127.0.0.1) and calls the API on a
 * node:http server through the Worker's own fetch.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startWorkerd } from '../../scripts/workerd.ts';
import { sendRequest } from '../_client.ts';
import { startTestServer } from '../_setup.ts';

test('a Worker calls the API through the client: a result, the rate-limit state, a redirect and an error', async () => {
  const server = await startTestServer();
  const worker = await startWorkerd({ entry: 'test/client/fixture/worker.ts' }, { API_BASE_URL: `http://127.0.0.1:${server.port}` });
  try {
    const answer = await sendRequest(worker.url, { path: '/' });
    assert.is(answer.status, 200, `${answer.text}\n${worker.output()}`);
    assert.equal(answer.json(), {
      version: { version: '2.4.1', downloadUrl: server.content.download.msiUrl },
      rateLimit: { limit: 120, remaining: 119, reset: 60 },
      installer: server.content.download.msiUrl,
      error: ['unknown_session', 400, 117],
    });
  } finally {
    await worker.stop();
    await server.close();
  }
});

test.run();
