/**
 * Every example of docs/embedding.md runs as a reader would run it: in a fresh project (package.json of
 * type module) where the packed package is installed with what the doc's table says, started with the
 * table's command, and answering requests: the version, a feedback, a whole checkout (create, pay in the
 * simulator, status) whose `url` follows the port, and both probes. The Worker is bundled as wrangler
 * would and runs under workerd; the Next.js route handler is called with Requests by a script in the
 * project (neither wrangler nor Next is installed here), once per route file the doc lists. Each one also
 * passes the conformance kit (docs/conformance.md), every check from its own loopback address.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendRequest } from '../_client.ts';
import { SIMULATOR_KEY_SHAPE } from '../_licenses.ts';
import { freePort, ROOT, spawnServer } from '../_spawn.ts';
import { startWorkerd, WORKER_VARS } from '../_workerd.ts';
import { APP_PATH_PREFIXES, APP_PATHS } from '../../core/http/paths.ts';
import { runConformance } from '../../client/conformance/index.ts';
import { kitOptions, nonConformance } from '../contract/_kit.ts';
import { installProject, packedTarball } from '../package/_packed.ts';

const VERSION = {
  version: '2.4.1',
  downloadUrl: 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi',
};
const FEEDBACK = { headers: { 'content-type': 'application/json' }, body: '{"description":"works here"}' };

const dir = mkdtempSync(join(tmpdir(), 'embedding-examples-'));
const project = join(dir, 'my-site');
installProject(project, packedTarball(), ['tsx', 'express', 'fastify', 'hono', '@hono/node-server'], { tsx: 'tsx/dist/cli.mjs' });
for (const file of readdirSync(join(ROOT, 'docs/examples'))) copyFileSync(join(ROOT, 'docs/examples', file), join(project, file));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** The Install and Run cells of the doc's table, by example file. */
function runTable(): Map<string, { install: string; run: string }> {
  const rows = new Map<string, { install: string; run: string }>();
  for (const line of readFileSync(join(ROOT, 'docs/embedding.md'), 'utf8').split('\n')) {
    const cells = /^\| `([\w-]+\.ts)` \| (.+?) \| `([^`]+)` \|$/.exec(line);
    if (cells) rows.set(cells[1]!, { install: cells[2]!, run: cells[3]! });
  }
  return rows;
}

/**
 * What every example must answer, through whatever framework it is mounted in.
 *
 * @param baseUrl Where the example listens.
 * @param publicBaseUrl Where it says it is reached: the checkout `url` starts with it.
 */
async function expectServes(baseUrl: string, publicBaseUrl: string, headers: Record<string, string> = {}): Promise<void> {
  const version = await sendRequest(baseUrl, { path: '/api/v1/version', headers });
  assert.is(version.status, 200, version.text);
  assert.equal(version.json(), VERSION);
  assert.is(version.headers['ratelimit-remaining'], '119');
  const feedback = await sendRequest(baseUrl, { method: 'POST', path: '/api/v1/feedback', ...FEEDBACK, headers: { ...headers, ...FEEDBACK.headers } });
  assert.is(feedback.status, 201, feedback.text);
  assert.equal(feedback.json(), { success: true });
  const created = await sendRequest(baseUrl, { method: 'POST', path: '/api/v1/checkout/create', headers });
  assert.is(created.status, 200, created.text);
  const { sessionId, url } = created.json() as { sessionId: string; url: string };
  assert.is(url, `${publicBaseUrl}/checkout/simulator/${sessionId}`);
  const page = await sendRequest(baseUrl, { path: new URL(url).pathname, headers });
  assert.is(page.status, 200, page.text);
  assert.match(page.text, 'PAYMENT SIMULATOR: no money is taken.');
  assert.match(page.text, '<p id="price">Price: <strong>$49</strong>');
  const paid = await sendRequest(baseUrl, { method: 'POST', path: `${new URL(url).pathname}/pay`, headers });
  assert.is(paid.status, 303, paid.text);
  const status = await sendRequest(baseUrl, { path: `/api/v1/checkout/status?session_id=${sessionId}`, headers });
  const keys = status.json() as Record<string, string | null>;
  assert.is(keys['status'], 'paid', status.text);
  assert.match(String(keys['licenseKey']), SIMULATOR_KEY_SHAPE);
  for (const [probe, body] of [['/healthz', { status: 'ok' }], ['/readyz', { status: 'ready' }]] as const) {
    const answer = await sendRequest(baseUrl, { path: probe, headers });
    assert.is(answer.status, 200, `${probe}: ${answer.text}`);
    assert.equal(answer.json(), body);
  }
}

const table = runTable();

test('the table says how to install and run every example file', () => {
  const examples = readdirSync(join(ROOT, 'docs/examples')).filter((file) => file !== 'site.ts' && !file.startsWith('client-'));
  assert.equal([...table.keys()].sort(), examples.sort());
  for (const [file, { install }] of table) assert.match(install, /converter-site-api/, file);
});

for (const file of ['node-server.ts', 'express-app.ts', 'fastify-app.ts', 'hono-app.ts', 'deno-server.ts', 'deno-deploy.ts', 'bun-server.ts']) {
  test(`${file} serves the API when run as the doc says`, async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // `npx tsx` runs the project's node_modules/.bin/tsx; it is called directly here because npx does not
    // pass SIGTERM on to the server it started.
    const command = table.get(file)!.run.replace('--port 8080', `--port ${port}`).replace(/^npx /, 'node_modules/.bin/');
    const publicBaseUrl = `http://localhost:${port}`;
    // Deno Deploy gives no PORT: that example reads its address from PUBLIC_BASE_URL.
    const env = { PORT: String(port), ...(file === 'deno-deploy.ts' ? { PUBLIC_BASE_URL: publicBaseUrl } : {}) };
    const server = await spawnServer(command, env, (output) => output.includes(`127.0.0.1:${port}`), 30_000, project);
    try {
      await expectServes(baseUrl, publicBaseUrl);
      assert.equal(nonConformance(await runConformance(kitOptions((init) => sendRequest(baseUrl, init), baseUrl))), []);
      if (file === 'express-app.ts' || file === 'fastify-app.ts' || file === 'hono-app.ts') {
        const site = await sendRequest(baseUrl, { path: '/' });
        assert.is(site.text, 'the rest of your site');
      }
    } finally {
      await server.stop();
    }
  });
}

test('cloudflare-worker.ts, bundled from the project, serves the API under workerd', async () => {
  const worker = await startWorkerd(join(project, 'cloudflare-worker.ts'));
  try {
    await expectServes(worker.baseUrl, WORKER_VARS.PUBLIC_BASE_URL, { 'cf-connecting-ip': '203.0.113.50' });
    // Cloudflare's edge names the client in CF-Connecting-IP: the kit's loopback address goes there.
    const send = ({ from, headers, ...init }: Parameters<typeof sendRequest>[1]) =>
      sendRequest(worker.baseUrl, { ...init, headers: { ...headers, 'cf-connecting-ip': from ?? '127.0.0.1' } });
    assert.equal(nonConformance(await runConformance(kitOptions(send, worker.baseUrl))), []);
  } finally {
    await worker.stop();
  }
});

/** The route files the doc's Next.js section lists, with the path each answers. */
function nextRouteFiles(): Map<string, string> {
  const doc = readFileSync(join(ROOT, 'docs/embedding.md'), 'utf8');
  return new Map([...doc.matchAll(/^\| `(app\/[^`]+\/route\.ts)` \| `([^`]+)`[^|]*\|$/gm)].map((m) => [m[2]!, m[1]!]));
}

test("the Next.js section lists one route file per path the app answers, and each file's directory serves it", () => {
  const files = nextRouteFiles();
  assert.equal([...files.keys()].sort(), [...APP_PATH_PREFIXES, ...APP_PATHS].sort());
  for (const [path, file] of files) {
    const dir = file.replace(/^app/, '').replace(/\/route\.ts$/, '');
    assert.is(path.endsWith('/') ? `${dir.replace('/[...path]', '')}/` : dir, path, file);
  }
});

test('nextjs-route.ts, called as each route file, answers a whole checkout and both probes', async () => {
  writeFileSync(
    join(project, 'call-route.ts'),
    `import { GET, POST } from './nextjs-route.ts';
const headers = { 'x-real-ip': '203.0.113.51' };
const call = async (method: 'GET' | 'POST', path: string, body?: string) => {
  const init = { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body }) };
  const response = await (method === 'GET' ? GET : POST)(new Request('http://localhost:3000' + path, init));
  return { status: response.status, location: response.headers.get('location'), remaining: response.headers.get('ratelimit-remaining'), text: await response.text() };
};
const version = await call('GET', '/api/v1/version');
const feedback = await call('POST', '/api/v1/feedback', '{"description":"works here"}');
const created = JSON.parse((await call('POST', '/api/v1/checkout/create')).text);
const page = await call('GET', new URL(created.url).pathname);
const paid = await call('POST', new URL(created.url).pathname + '/pay');
const status = JSON.parse((await call('GET', '/api/v1/checkout/status?session_id=' + created.sessionId)).text);
const probes = [await call('GET', '/healthz'), await call('GET', '/readyz')].map((p) => [p.status, JSON.parse(p.text)]);
const documents = [await call('GET', '/llms.txt'), await call('GET', '/openapi.json'), await call('GET', '/windows-only')].map((d) => d.status);
console.log(JSON.stringify([version.status, JSON.parse(version.text), feedback.status, version.remaining, created.url.startsWith('http://localhost:4123/checkout/simulator/'), page.status, paid.status, status.status, probes, documents]));`,
  );
  const script = await spawnServer('node_modules/.bin/tsx call-route.ts', { PORT: '4123', VERCEL: '1' }, (output) => output.includes(']\n'), 30_000, project);
  await script.exited;
  assert.equal(JSON.parse(script.stdout()), [
    200,
    VERSION,
    201,
    '119',
    true,
    200,
    303,
    'paid',
    [
      [200, { status: 'ok' }],
      [200, { status: 'ready' }],
    ],
    [200, 200, 200],
  ]);
});

test('nextjs-route.ts passes the conformance kit of the installed package, X-Real-IP naming each client', async () => {
  writeFileSync(
    join(project, 'conform-route.ts'),
    `import { runConformance, simulatorPayment } from 'converter-site-api/conformance';
import { GET, POST } from './nextjs-route.ts';
const report = await runConformance({ fetch: (request) => (request.method === 'GET' ? GET : POST)(request), baseUrl: 'http://localhost:3000', clientAddressHeader: 'x-real-ip', payCheckout: simulatorPayment, strict: true });
console.log(JSON.stringify(report.checks.filter((check) => check.status !== 'pass').map((check) => [check.id, check.status, check.message])));`,
  );
  const script = await spawnServer('node_modules/.bin/tsx conform-route.ts', { TRUST_X_REAL_IP: '1' }, (output) => output.includes(']\n'), 60_000, project);
  await script.exited;
  assert.equal(JSON.parse(script.stdout()), [['alias-deprecation', 'skip', 'the aliases announce no deprecation (no Deprecation header)']]);
});

test('docs/embedding.md shows each example file as it is', () => {
  const doc = readFileSync(join(ROOT, 'docs/embedding.md'), 'utf8');
  const blocks = [...doc.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  for (const file of readdirSync(join(ROOT, 'docs/examples')).filter((name) => !name.startsWith('client-'))) {
    assert.ok(blocks.includes(readFileSync(join(ROOT, 'docs/examples', file), 'utf8')), `docs/embedding.md has no block equal to docs/examples/${file}`);
  }
});

test.run();
