/**
 * The published artifact works: `npm pack` (which builds with tsup), publint and attw on the tarball, the
 * tarball installed into a fresh project (see _packed.ts), a request served through it, every operation
 * called through its client, its .d.ts files type-checked there, and its `converter-site-api` program
 * serving what `npm start` serves.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey } from '../../core/licensing/license.ts';
import { listeningLine, ROOT, type Spawned, spawnServer } from '../_spawn.ts';
import { walkEndpoints } from './_endpoints.ts';
import { installProject, packedTarball } from './_packed.ts';

const FIXTURE = join(ROOT, 'test/package/fixture');
const BIN = join(ROOT, 'node_modules/.bin');
const dir = mkdtempSync(join(tmpdir(), 'pack-test-'));
const project = join(dir, 'project');

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
}

/** The bare specifiers a built module reaches through its relative imports. */
function externalImports(file: string, seen = new Set<string>()): Set<string> {
  const found = new Set<string>();
  if (seen.has(file)) return found;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  // Import and export statements (they start a line in esbuild's output) and dynamic imports; not SQL text
  // such as `from "${schema}".t`.
  const statements = /^(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm;
  for (const match of source.matchAll(statements)) {
    const specifier = (match[1] ?? match[2] ?? match[3])!;
    if (specifier.startsWith('.')) {
      for (const name of externalImports(resolve(dirname(file), specifier), seen)) found.add(name);
    } else {
      found.add(specifier);
    }
  }
  return found;
}

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('npm pack builds a tarball of dist/, the example content, the client vectors, the docs, README and LICENSE that publint and attw find clean', () => {
  const tarball = packedTarball();
  const files = run('tar', ['-tzf', tarball], dir).trim().split('\n');
  const docs = readdirSync(join(ROOT, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `package/docs/${file}`);
  assert.equal(files.filter((file) => !file.startsWith('package/dist/')).sort(), [
    'package/LICENSE',
    'package/README.md',
    ...docs,
    'package/docs/vectors/license-keys.json',
    'package/docs/vectors/license-validate.json',
    'package/docs/vectors/update-files.json',
    'package/docs/vectors/update-signatures.json',
    'package/example/config.json',
    'package/example/version.txt',
    'package/package.json',
  ]);
  assert.ok(files.includes('package/dist/index.d.ts'), 'dist/index.d.ts is packed');
  assert.ok(files.includes('package/dist/cli.js'), 'the program is packed');
  const output = run(join(BIN, 'publint'), ['run', tarball, '--level', 'suggestion'], ROOT);
  assert.match(output, /All good!/);
  // ESM only: attw's esm-only profile leaves out the CommonJS resolutions (node10, node16 from require).
  const types = run(join(BIN, 'attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], ROOT);
  assert.match(types, /ignoring resolutions: 'node10', 'node16-cjs'/);
  installProject(project, tarball);
});

test('the installed package serves requests through its fetch and node:http bindings, and on PGlite', () => {
  copyFileSync(join(FIXTURE, 'consumer.mjs'), join(project, 'consumer.mjs'));
  const config = JSON.parse(readFileSync(join(ROOT, 'example/config.json'), 'utf8')) as Record<string, unknown>;
  const content = { offer: config['offer'], download: config['download'], roadmap: config['roadmap'] };
  const result = JSON.parse(run(process.execPath, ['consumer.mjs', JSON.stringify(content)], project)) as Record<string, unknown>;
  assert.equal(result, {
    fetch: { status: 200, body: { version: '2.4.1', downloadUrl: (config['download'] as { msiUrl: string }).msiUrl } },
    node: { status: 200, remaining: '119', body: config['offer'] },
    pglite: { status: 200, body: { voted: true, vote_count: 1 } },
  });
});

test('the installed client calls every operation against the installed server', () => {
  copyFileSync(join(FIXTURE, 'client.mjs'), join(project, 'client.mjs'));
  const config = JSON.parse(readFileSync(join(ROOT, 'example/config.json'), 'utf8')) as Record<string, unknown>;
  const content = { offer: config['offer'], download: config['download'], roadmap: config['roadmap'] };
  const msiUrl = (config['download'] as { msiUrl: string }).msiUrl;
  const result = JSON.parse(run(process.execPath, ['client.mjs', JSON.stringify(content)], project)) as Record<string, unknown>;
  assert.equal(result, {
    getPricing: 'USD',
    getVersion: { version: '2.4.1', downloadUrl: msiUrl },
    submitFeedback: { success: true },
    listRoadmap: (config['roadmap'] as { visible: boolean }[]).filter((feature) => feature.visible).length,
    toggleRoadmapVote: { voted: true, vote_count: 1 },
    createCheckout: 'string',
    getCheckoutStatus: 'pending',
    downloadInstaller: msiUrl,
    getLlmsTxt: true,
    getOpenApi: '3.1.1',
    rateLimit: { limit: 120, remaining: 109, reset: true },
    error: ['feature_not_found', 404],
  });
});

test('importing "." loads only the core dependencies (no database driver); ./postgres and ./pglite each their own; ./storage-conformance none', () => {
  const imports = (name: string) => [...externalImports(join(project, `node_modules/converter-site-api/dist/${name}.js`))].sort();
  assert.equal(imports('index'), ['@valibot/to-json-schema', 'valibot']);
  assert.equal(imports('memory'), []);
  // The storage face and its conformance suite: the package's own code only (no test library, no driver).
  assert.equal(imports('storage'), []);
  assert.equal(imports('storage-conformance'), []);
  assert.equal(imports('client'), ['valibot']);
  assert.equal(imports('postgres'), ['postgres']);
  assert.equal(imports('pglite'), ['@electric-sql/pglite']);
});

test('the .d.ts files type-check in the consumer under moduleResolution nodenext, and wrong client calls do not', () => {
  copyFileSync(join(FIXTURE, 'consumer.ts'), join(project, 'consumer.ts'));
  copyFileSync(join(FIXTURE, 'client-types.ts'), join(project, 'client-types.ts'));
  const args = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
  const typeRoots = ['--typeRoots', join(ROOT, 'node_modules/@types'), '--types', 'node', '--lib', 'es2022,dom'];
  // client-types.ts holds @ts-expect-error lines: tsc fails when one of them is not an error.
  run(join(BIN, 'tsc'), [...args, ...typeRoots, 'consumer.ts', 'client-types.ts'], project);
});

test('npx converter-site-api --help lists the commands; an unknown flag exits 64', () => {
  const help = run('npx', ['--offline', 'converter-site-api', '--help'], project);
  assert.match(help, /^usage: converter-site-api \[command\] \[options\]\n/);
  for (const command of ['serve', 'migrate', 'export', 'license']) assert.match(help, new RegExp(`^  ${command} +\\S`, 'm'));
  try {
    run(join(project, 'node_modules/.bin/converter-site-api'), ['serve', '--port', '1'], project);
    assert.unreachable('an unknown flag was accepted');
  } catch (error) {
    const { status, stderr } = error as { status: number; stderr: string };
    assert.equal({ status, stderr }, {
      status: 64,
      stderr: "converter-site-api serve: Unknown option '--port'\nRun `converter-site-api serve --help` for usage.\n",
    });
  }
});

/** The 'listening' line's url and publicBaseUrl, once printed. */
const listening = (output: string) => listeningLine(output) as { url: string; publicBaseUrl: string } | undefined;

test('the installed program, run with production dependencies only, serves every endpoint as `npm start` does; SIGTERM exits 0', async () => {
  // Memory storage, so that a DATABASE_URL in the test environment is not used and no PGlite starts twice
  // (test/deploy/dockerfile.test.ts runs the built program on PGlite).
  const env = { STORAGE: 'memory', PORT: '0', HOST: '127.0.0.1', VOTER_SECRET: 'pack-test-voters', LICENSE_SIGNING_KEY: await generateSigningKey() };
  const start = (command: string, cwd: string): Promise<Spawned> => spawnServer(command, env, listening, 60_000, cwd);
  // The package's own example content: the project has no config.json, and CONFIG_FILE is unset.
  const installed = await start(join(project, 'node_modules/.bin/converter-site-api'), project);
  const checkout = await start(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start, ROOT);
  try {
    const [fromPackage, fromCheckout] = [listening(installed.output())!, listening(checkout.output())!];
    const seen = await walkEndpoints(fromPackage.url, fromPackage.publicBaseUrl);
    assert.equal(seen, await walkEndpoints(fromCheckout.url, fromCheckout.publicBaseUrl));
    assert.equal(
      seen.map((answer) => `${answer.request} ${answer.status}`),
      [
        'GET /api/v1/pricing 200',
        'GET /api/v1/download?source=pack-test 302',
        'GET /api/v1/version 200',
        'POST /api/v1/feedback 201',
        'GET /api/v1/roadmap 200',
        'POST /api/v1/roadmap 200',
        'POST /api/v1/roadmap 200',
        'POST /api/v1/checkout/create 200',
        'GET /api/v1/checkout/status?session_id=<session> 200',
        'GET /llms.txt 200',
        'GET /openapi.json 200',
      ],
    );
    assert.equal([seen[5]!.body, seen[6]!.body], ['{"voted":true,"vote_count":1}', '{"voted":false,"vote_count":0}']);
    assert.match(installed.stdout(), `"config":"${join(project, 'node_modules/converter-site-api/example/config.json')}"`);
  } finally {
    assert.is(await installed.stop(), 0, installed.output());
    await checkout.stop();
  }
});

test('npx converter-site-api conformance, from the package, passes against the installed server, as do Deno and Bun running it', async () => {
  const env = { STORAGE: 'memory', PORT: '0', HOST: '127.0.0.1', TRUSTED_PROXIES: '127.0.0.1/32' };
  const server = await spawnServer(join(project, 'node_modules/.bin/converter-site-api'), env, listening, 60_000, project);
  try {
    const { url } = listening(server.output())!;
    const pay = ['--pay-url', '/checkout/simulator/{sessionId}/pay'];
    // As a tester runs it first: one address, the default quota; from a fresh address the kit need not wait.
    const paced = run('npx', ['--offline', 'converter-site-api', 'conformance', '--base-url', url, ...pay], project);
    assert.match(paced, '\n\n53 passed, 0 failed, 7 skipped\n');
    const cli = join(project, 'node_modules/converter-site-api/dist/cli.js');
    const args = [cli, 'conformance', '--base-url', url, ...pay, '--client-address-header', 'x-forwarded-for', '--strict', '--format', 'json'];
    for (const [runtime, ...flags] of [[join(ROOT, 'node_modules/.bin/deno'), 'run', '-A'], [join(ROOT, 'node_modules/.bin/bun')]] as const) {
      const report = JSON.parse(run(runtime, [...flags, ...args], project)) as { passed: number; failed: number; skipped: number };
      assert.equal([report.passed, report.failed, report.skipped], [59, 0, 1], runtime);
    }
  } finally {
    assert.is(await server.stop(), 0, server.output());
  }
});

test('converter-site-api scenarios, from the package, serves the scenarios with their installers on 127.0.0.1', async () => {
  const address = (output: string) => /^http:\/\/127\.0\.0\.1:\d+$/m.exec(output)?.[0];
  const scenarios = await spawnServer(`${join(project, 'node_modules/.bin/converter-site-api')} scenarios --port 0`, {}, address, 60_000, project);
  try {
    const url = address(scenarios.stdout())!;
    const listing = (await (await fetch(`${url}/scenarios`)).json()) as { scenarios: { name: string; apiBase: string }[] };
    assert.is(listing.scenarios.length, 46);
    const download = await fetch(`${listing.scenarios[1]!.apiBase}/download`, {
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' },
      redirect: 'manual',
    });
    assert.is(download.status, 302);
    const installer = await fetch(download.headers.get('location')!);
    assert.is(installer.status, 200);
    assert.is(String((await installer.arrayBuffer()).byteLength), download.headers.get('installer-size'));
  } finally {
    assert.is(await scenarios.stop(), 0, scenarios.output());
  }
});

test.run();
