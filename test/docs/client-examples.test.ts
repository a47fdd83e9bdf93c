/**
 * The examples of docs/client.md run against a server on a real socket: the Node script under Node and
 * Bun, the Deno script under Deno, and the web page bundled by esbuild as the doc says, then run in Node
 * with the two page globals it reads (location, and a document holding two data-price elements).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bundlePage } from '../../scripts/client-size.ts';
import { startTestServer, type TestServer } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';

const test = suite<{ server: TestServer; base: string }>('client examples', {} as { server: TestServer; base: string });
test.before.each(async (context) => {
  context.server = await startTestServer();
  context.base = `http://127.0.0.1:${context.server.port}`;
});
test.after.each(async ({ server }) => server.close());

function run(command: string, args: string[], base: string): Promise<string> {
  // Asynchronous: the server answers in this process.
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: ROOT, env: { ...process.env, BASE_URL: base, NO_COLOR: '1' } },
      (error, stdout, stderr) => error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
    );
  });
}

const bin = (name: string) => join(ROOT, 'node_modules/.bin', name);

for (
  const [runtime, command, args] of [
    ['Node', process.execPath, ['--import', 'tsx', 'docs/examples/client-node.ts']],
    ['Bun', bin('bun'), ['docs/examples/client-node.ts']],
  ] as const
) {
  test(`client-node.ts under ${runtime} prints the version, the price with the rate limit, and the error`, async ({ server, base }) => {
    const output = await run(command, [...args], base);
    assert.is(
      output,
      `latest desktop version 2.4.1: ${server.content.download.msiUrl}\n` +
        `license ${server.content.offer.licensePriceDisplay}; 118 of 120 requests left\n` +
        '400 unknown_session: Use the sessionId returned by POST /api/v1/checkout/create, or create a new checkout session.\n',
    );
  });
}

test('client-deno.ts under Deno votes for the first feature and reads the installer address', async ({ server, base }) => {
  const output = await run(bin('deno'), ['run', '--allow-net', '--allow-env', 'docs/examples/client-deno.ts'], base);
  const first = server.content.roadmap.find((feature) => feature.visible)!;
  assert.is(output, `${first.title}: voted true, 1 votes\ninstaller: ${server.content.download.msiUrl}\n`);
});

test('client-web.ts bundles for the browser and fills the data-price elements', async ({ server, base }) => {
  const { code } = await bundlePage(readFileSync(join(ROOT, 'docs/examples/client-web.ts'), 'utf8'), join(ROOT, 'docs/examples'));
  const dir = mkdtempSync(join(tmpdir(), 'client-web-'));
  try {
    writeFileSync(join(dir, 'client-web.mjs'), code);
    writeFileSync(
      join(dir, 'page.mjs'),
      `const elements = [{ textContent: '' }, { textContent: '' }];
globalThis.location = { origin: ${JSON.stringify(base)} };
globalThis.document = { querySelectorAll: (selector) => (selector === '[data-price]' ? elements : []) };
await import('./client-web.mjs');
console.log(JSON.stringify(elements.map((element) => element.textContent)));`,
    );
    const output = await run(process.execPath, [join(dir, 'page.mjs')], base);
    const price = server.content.offer.licensePriceDisplay;
    assert.equal(JSON.parse(output), [price, price]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('docs/client.md shows each example file as it is', () => {
  const doc = readFileSync(join(ROOT, 'docs/client.md'), 'utf8');
  for (const file of ['client-web.ts', 'client-node.ts', 'client-deno.ts']) {
    const source = readFileSync(join(ROOT, 'docs/examples', file), 'utf8').trimEnd();
    assert.ok(doc.includes('```ts\n' + source + '\n```'), `docs/client.md does not show docs/examples/${file} as it is`);
  }
});

test.run();
