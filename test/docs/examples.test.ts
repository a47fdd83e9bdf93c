/**
 * Every example of docs/embedding.md runs as a reader would run it: in a fresh project (package.json of
 * type module) where the packed package is installed with what the doc's table says, started with the
 * table's command, and answering requests. The Worker is bundled as wrangler would and runs under workerd;
 * the Next.js route handler is called with Requests by a script in the project (neither wrangler nor Next
 * is installed here).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendRequest } from '../_client.ts';
import { freePort, ROOT, spawnServer } from '../_spawn.ts';
import { startWorkerd } from '../_workerd.ts';
import { installProject, packedTarball } from '../package/_packed.ts';

const VERSION = {
  version: '2.4.1',
  downloadUrl: 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi',
};
const FEEDBACK = { headers: { 'content-type': 'application/json' }, body: '{"description":"works here"}' };

const dir = mkdtempSync(join(tmpdir(), 'embedding-examples-'));
const project = join(dir, 'my-site');
installProject(project, packedTarball(), ['tsx', 'express', 'fastify'], { tsx: 'tsx/dist/cli.mjs' });
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

const table = runTable();

test('the table says how to install and run every example file', () => {
  const examples = readdirSync(join(ROOT, 'docs/examples')).filter((file) => file !== 'site.ts' && !file.startsWith('client-'));
  assert.equal([...table.keys()].sort(), examples.sort());
  for (const [file, { install }] of table) assert.match(install, /converter-site-api/, file);
});

for (const file of ['node-server.ts', 'express-app.ts', 'fastify-app.ts', 'deno-server.ts', 'deno-deploy.ts', 'bun-server.ts']) {
  test(`${file} serves the API when run as the doc says`, async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // `npx tsx` runs the project's node_modules/.bin/tsx; it is called directly here because npx does not
    // pass SIGTERM on to the server it started.
    const command = table.get(file)!.run.replace('--port 8080', `--port ${port}`).replace(/^npx /, 'node_modules/.bin/');
    const server = await spawnServer(command, { PORT: String(port) }, (output) => output.includes(`127.0.0.1:${port}`), 30_000, project);
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

test('cloudflare-worker.ts, bundled from the project, serves the API under workerd', async () => {
  const worker = await startWorkerd(join(project, 'cloudflare-worker.ts'));
  try {
    await expectServes(worker.baseUrl, { 'cf-connecting-ip': '203.0.113.50' });
  } finally {
    await worker.stop();
  }
});

test('nextjs-route.ts answers GET and POST route calls in the project', async () => {
  writeFileSync(
    join(project, 'call-route.ts'),
    `import { GET, POST } from './nextjs-route.ts';
const headers = { 'x-real-ip': '203.0.113.51' };
const version = await GET(new Request('http://localhost/api/v1/version', { headers }));
const feedback = await POST(new Request('http://localhost/api/v1/feedback', { method: 'POST', body: '{"description":"works here"}', headers: { ...headers, 'content-type': 'application/json' } }));
const again = await GET(new Request('http://localhost/api/v1/version', { headers }));
console.log(JSON.stringify([version.status, await version.json(), feedback.status, again.headers.get('ratelimit-remaining')]));`,
  );
  const script = await spawnServer('node_modules/.bin/tsx call-route.ts', {}, (output) => output.includes(']\n'), 30_000, project);
  await script.exited;
  assert.equal(JSON.parse(script.stdout()), [200, VERSION, 201, '117']);
});

test.run();
