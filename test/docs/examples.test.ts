/**
 * Every example of docs/embedding.md runs: each server example is started as its own process on a free
 * port and answers; the Worker runs under workerd; the Next.js route handler is called with Requests.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendRequest } from '../_client.ts';
import { freePort, spawnServer } from '../_spawn.ts';
import { startWorkerd } from '../_workerd.ts';

const VERSION = {
  version: '2.4.1',
  downloadUrl: 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi',
};
const FEEDBACK = { headers: { 'content-type': 'application/json' }, body: '{"description":"works here"}' };

/** The two requests every example must answer. */
async function expectServes(baseUrl: string, headers: Record<string, string> = {}): Promise<void> {
  const version = await sendRequest(baseUrl, { path: '/api/v1/version', headers });
  assert.is(version.status, 200, version.text);
  assert.equal(version.json(), VERSION);
  assert.is(version.headers['ratelimit-remaining'], '119');
  const feedback = await sendRequest(baseUrl, { method: 'POST', path: '/api/v1/feedback', ...FEEDBACK, headers: { ...headers, ...FEEDBACK.headers } });
  assert.is(feedback.status, 201, feedback.text);
  assert.equal(feedback.json(), { success: true });
}

const servers: Record<string, (port: number) => string> = {
  'node-server.ts': () => 'node --import tsx docs/examples/node-server.ts',
  'express-app.ts': () => 'node --import tsx docs/examples/express-app.ts',
  'fastify-app.ts': () => 'node --import tsx docs/examples/fastify-app.ts',
  'deno-server.ts': () => 'deno run --allow-net --allow-read --allow-env docs/examples/deno-server.ts',
  'deno-deploy.ts': (port) => `deno serve --allow-net --allow-read --allow-env --host 127.0.0.1 --port ${port} docs/examples/deno-deploy.ts`,
  'bun-server.ts': () => 'bun docs/examples/bun-server.ts',
};

for (const [file, command] of Object.entries(servers)) {
  test(`${file} serves the API`, async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const server = await spawnServer(command(port), { PORT: String(port) }, (output) => output.includes(`127.0.0.1:${port}`));
    try {
      await expectServes(baseUrl);
      if (file === 'express-app.ts' || file === 'fastify-app.ts') {
        const site = await sendRequest(baseUrl, { path: '/' });
        assert.is(site.text, 'the rest of your site');
      }
    } finally {
      await server.stop();
    }
  });
}

test('cloudflare-worker.ts serves the API under workerd', async () => {
  const worker = await startWorkerd('docs/examples/cloudflare-worker.ts');
  try {
    await expectServes(worker.baseUrl, { 'cf-connecting-ip': '203.0.113.50' });
  } finally {
    await worker.stop();
  }
});

test('nextjs-route.ts answers GET and POST route calls', async () => {
  const route = await import('../../docs/examples/nextjs-route.ts');
  const headers = { 'x-real-ip': '203.0.113.51' };
  const version = await route.GET(new Request('http://localhost/api/v1/version', { headers }));
  assert.is(version.status, 200);
  assert.equal(await version.json(), VERSION);
  const feedback = await route.POST(new Request('http://localhost/api/v1/feedback', { method: 'POST', ...FEEDBACK, headers: { ...headers, ...FEEDBACK.headers } }));
  assert.is(feedback.status, 201);
  const again = await route.GET(new Request('http://localhost/api/v1/version', { headers }));
  assert.is(again.headers.get('ratelimit-remaining'), '117');
});

test.run();
