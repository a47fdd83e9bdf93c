/**
 * The docs against the code: each test fails when README.md or docs/*.md drifts from what the code does.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { API_ROUTES, V1_PREFIX } from '../core/api.ts';
import { ERROR_CATALOGUE } from '../core/http/errors.ts';
import { PUBLIC_API_POLICY } from '../core/pipeline/rate-limit.ts';
import { roadmapContentObject, siteContentObject } from '../core/schemas/content.ts';
import { pricingObject } from '../core/schemas/responses.ts';
import { EXIT } from '../server/cli/command.ts';
import { StripeFileSchema } from '../server/payment-config.ts';
import { HTTP_LIMITS } from '../server/http-limits.ts';
import { startTestServer } from './_setup.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
const docFiles = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The cells of the markdown table row whose first cell is exactly `first`, or undefined. */
function tableRow(markdown: string, first: string): string[] | undefined {
  for (const line of markdown.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
    if (cells[0] === first) return cells;
  }
  return undefined;
}

/** The text of the `##` section with this heading, up to the next `##`. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

test('docs/errors.md lists every code of ERROR_CATALOGUE with its status, and no other code', () => {
  const errors = read('docs/errors.md');
  for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
    const row = tableRow(errors, `\`${code}\``);
    assert.ok(row, `docs/errors.md has no table row for ${code}`);
    assert.is(row[1], String(status), `status of ${code} in docs/errors.md`);
  }
  const documented = [...errors.matchAll(/^\| `([a-z_]+)` \| \d{3} \|/gm)].map((m) => m[1]);
  assert.equal(documented.sort(), Object.keys(ERROR_CATALOGUE).sort());
});

test('docs/errors.md gives each endpoint exactly the error codes of its route', () => {
  const errors = read('docs/errors.md');
  for (const route of API_ROUTES) {
    const row = tableRow(errors, `\`${route.method} ${V1_PREFIX}${route.path}\``);
    assert.ok(row, `docs/errors.md has no row for ${route.method} ${route.path}`);
    const listed = [...row[1]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    assert.equal(listed.sort(), [...route.errors].sort(), `codes of ${route.method} ${route.path}`);
  }
});

test('docs/configuration.md documents every environment variable that server/config.ts, payment-config.ts, storage-config.ts, http-limits.ts, observability-config.ts and operator-config.ts read', () => {
  // server/config.ts reads the process settings, server/payment-config.ts the gateway's, server/storage-config.ts the storage's.
  const source = read('server/config.ts') +
    read('server/payment-config.ts') +
    read('server/storage-config.ts') +
    read('server/http-limits.ts') +
    read('server/observability-config.ts') +
    read('server/operator-config.ts');
  // env['X'], env.X, and http-limits.ts's positiveInteger(env, 'X', ...).
  const names = new Set([...source.matchAll(/env(?:\['([A-Z_]+)'\]|\.([A-Z_]+)|, '([A-Z_]+)')/g)].map((m) => m[1] ?? m[2] ?? m[3]));
  const expected = [
    'PORT',
    'HOST',
    'STORAGE',
    'DATA_DIR',
    'DATABASE_URL',
    'DATABASE_SCHEMA',
    'TRUSTED_PROXIES',
    'CONFIG_FILE',
    'PAYMENT_GATEWAY',
    'STRIPE_SECRET_KEY',
    'MAX_CONNECTIONS_PER_CLIENT',
    'MAX_CONNECTIONS',
    'HTTP_HEADERS_TIMEOUT_MS',
    'HTTP_REQUEST_TIMEOUT_MS',
    'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    'LOG_LEVEL',
    'LOG_REQUESTS',
    'METRICS_PORT',
    'METRICS_HOST',
    'DRAIN_SECONDS',
    'OPERATOR_PORT',
    'OPERATOR_HOST',
    'OPERATOR_TOKEN',
  ];
  for (const name of expected) {
    assert.ok(names.has(name), `server/config.ts, payment-config.ts or storage-config.ts no longer reads ${name} the way this test finds it`);
  }
  const config = read('docs/configuration.md');
  for (const name of names) assert.ok(tableRow(config, `\`${name}\``), `docs/configuration.md has no row for ${name}`);
});

test('docs/configuration.md documents every runtime script and every Worker variable', () => {
  const config = read('docs/configuration.md');
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  const starts = Object.keys(scripts).filter((name) => name === 'start' || name.startsWith('start:'));
  assert.equal(starts.sort(), ['start', 'start:bun', 'start:deno', 'start:workers']);
  for (const name of starts) {
    const command = name === 'start' ? '`npm start`' : `\`npm run ${name}\``;
    assert.ok(section(config, 'Runtimes').includes(command), `the Runtimes section does not name ${command}`);
  }
  const env = /export interface SiteWorkerEnv \{([\s\S]*?)\n\}/.exec(read('server/worker-app.ts'))?.[1];
  assert.ok(env, 'SiteWorkerEnv not found in server/worker-app.ts');
  const variables = [...env.matchAll(/^ {2}([A-Z_]+)\??:/gm)].map((m) => m[1]!);
  assert.ok(variables.includes('PRODUCT_VERSION'), 'SiteWorkerEnv no longer lists PRODUCT_VERSION the way this test finds it');
  for (const name of variables) {
    assert.ok(tableRow(section(config, 'Cloudflare Workers'), `\`${name}\``), `the Cloudflare Workers section has no row for ${name}`);
  }
});

test('docs/configuration.md documents every config file field', () => {
  const source = read('server/config-schema.ts');
  const block = /export const ConfigFileSchema = v\.strictObject\(\{([\s\S]*?)\n\}\);/.exec(source)?.[1];
  assert.ok(block, 'ConfigFileSchema not found in server/config-schema.ts');
  const own = [...block.matchAll(/^ {2}(\$?\w+):/gm)].map((m) => m[1]!);
  assert.ok(block.includes('...siteContentObject.entries'), 'ConfigFileSchema no longer spreads siteContentObject');
  const config = read('docs/configuration.md');
  for (const field of [...own, ...Object.keys(siteContentObject.entries)]) {
    assert.ok(tableRow(config, `\`${field}\``), `docs/configuration.md has no row for the field ${field}`);
  }
  const nested = [
    ...Object.keys(pricingObject.entries),
    ...Object.keys(siteContentObject.entries.download.entries),
    ...Object.keys(roadmapContentObject.entries),
    ...Object.keys(StripeFileSchema.entries),
    ...Object.keys(StripeFileSchema.entries.prices.entries),
  ];
  for (const field of nested) assert.ok(config.includes(`\`${field}\``), `docs/configuration.md does not name ${field}`);
});

test('docs/configuration.md gives the node:http limits of server/start.ts', () => {
  const config = read('docs/configuration.md');
  for (const [name, value] of Object.entries(HTTP_LIMITS)) {
    const row = tableRow(config, `\`${name}\``);
    assert.ok(row, `docs/configuration.md has no row for ${name}`);
    assert.ok(row[1]!.startsWith(`\`${value}\``), `${name} is ${value} in server/start.ts, not ${row[1]}`);
  }
});

test('every npm script is named in README.md or docs/ the way it is run', () => {
  const docs = docFiles.map(read).join('\n');
  const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
  assert.ok(scripts.includes('migrate') && scripts.includes('export'), 'package.json lost the operator commands');
  // prepack and postbuild are npm's lifecycle hooks of `npm pack` and `npm run build`, not commands anyone types.
  for (const name of scripts.filter((script) => script !== 'prepack' && script !== 'postbuild')) {
    const command = name === 'start' || name === 'test' ? `npm ${name}` : `npm run ${name}`;
    assert.ok(docs.includes(`\`${command}`), `no document names \`${command}\``);
  }
});

test('docs/rate-limiting.md states the policy the code applies', () => {
  const doc = read('docs/rate-limiting.md');
  const { name, limit, windowSeconds } = PUBLIC_API_POLICY;
  assert.ok(doc.includes(`${limit} requests per client per ${windowSeconds} seconds`));
  assert.ok(doc.includes(`"${name}";q=${limit};w=${windowSeconds}`));
  assert.ok(doc.includes('draft-ietf-httpapi-ratelimit-headers-08'));
  assert.ok(read('core/pipeline/rate-limit.ts').includes('draft-ietf-httpapi-ratelimit-headers-08'));
});

test('README.md gives the two set-up commands exactly, and package.json defines them', () => {
  const readme = read('README.md');
  assert.ok(readme.includes('```sh\nnpm install && npm start\n```'), 'README lacks `npm install && npm start`');
  assert.ok(readme.includes('```sh\nnpm test\n```'), 'README lacks `npm test`');
  const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
  assert.ok(scripts['start'] && scripts['test']);
});

/** What the package ships of the repository's files (package.json "files"): the docs, their vectors, the example. */
const shippedInPackage = (path: string) => /^(README\.md|LICENSE|docs\/[^/]+\.md|docs\/vectors(\/[^/]+\.json)?|example(\/.*)?|dist\/.*)$/.test(path);
const REPOSITORY = 'https://github.com/converter-site/converter-site-api/';

test('README.md and docs/ link relatively only to what the package ships, and absolutely to the rest of the repository, which exists', () => {
  const files = (JSON.parse(read('package.json')) as { files: string[] }).files;
  assert.equal(files, ['dist', 'example', 'docs/*.md', 'docs/vectors/*.json', 'README.md', 'LICENSE'], 'shippedInPackage follows package.json "files"');
  let absolute = 0;
  for (const file of docFiles) {
    for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      const path = target!.split('#')[0]!;
      if (target!.startsWith(REPOSITORY)) {
        const named = /^https:\/\/github\.com\/converter-site\/converter-site-api\/(?:blob|tree)\/main\/(.+)$/.exec(path)?.[1];
        if (named === undefined) continue; // the repository's pages (issues, releases, compare)
        absolute++;
        assert.ok(existsSync(join(root, named)), `${file} links to ${target}, which this repository does not hold`);
        assert.not.ok(shippedInPackage(named), `${file} links to ${target} absolutely, but the package ships it: link it relatively`);
      } else if (!/^[a-z]+:/.test(target!) && path !== '') {
        const inRepository = join(dirname(file), path).replace(/\/+$/, '');
        assert.ok(shippedInPackage(inRepository), `${file} links to ${target}, which the package does not ship: link ${REPOSITORY}blob/main/${inRepository}`);
      }
    }
  }
  assert.ok(absolute >= 150, `${absolute} absolute links to the repository`);
});

test('every relative link in README.md and docs/ points to an existing file and heading', () => {
  for (const file of docFiles) {
    const text = read(file);
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, hash] = target!.split('#');
      const resolved = path ? resolve(root, dirname(file), path) : join(root, file);
      assert.ok(existsSync(resolved), `${file} links to missing ${target}`);
      if (!hash || !resolved.endsWith('.md')) continue;
      const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]!));
      assert.ok(headings.includes(hash), `${file} links to missing heading ${target}`);
    }
  }
});

test('the embedding example in README.md runs and answers 200', () => {
  const code = /```ts\n([\s\S]*?)```/.exec(read('README.md'))?.[1];
  assert.ok(code, 'README.md has no ts example');
  const listen = /^createServer\(createNodeListener\(app\)\)\.listen\(\d+\);$/m;
  assert.ok(listen.test(code), 'the example no longer serves the app with node:http');
  const runnable = code.replace(listen, '').replace(/from '([^']+)'/g, (_, spec: string) => {
    if (spec.startsWith('node:')) return `from '${spec}'`;
    const url = spec.startsWith('./') ? pathToFileURL(join(root, spec)).href : import.meta.resolve(spec);
    return `from '${url}'`;
  });
  const dir = mkdtempSync(join(tmpdir(), 'readme-example-'));
  try {
    writeFileSync(join(dir, 'example.mts'), runnable);
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(dir, 'example.mts')], { cwd: root, encoding: 'utf8' });
    assert.is(run.status, 0, run.stderr);
    assert.is(run.stdout.trim(), `200 "public-api";r=${PUBLIC_API_POLICY.limit - 1};t=${PUBLIC_API_POLICY.windowSeconds}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The fenced ```sh blocks of a markdown text, with continuation lines joined. */
function shellBlocks(markdown: string): string[][] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/\\\n\s*/g, '').split('\n').filter(Boolean));
}

/** Runs one shell line as a reader would (asynchronously: the server answering it is in this process). */
function shell(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('/bin/sh', ['-c', line], { cwd: root }, (error, stdout, stderr) => done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

test("README.md's POST examples send the spec's bodies, cover every public POST, and print what README.md shows under them", async () => {
  const block = shellBlocks(read('README.md')).find((lines) => lines.some((line) => line.startsWith('curl -s -w')));
  assert.ok(block, 'README.md has no block of POST examples');
  const server = await startTestServer();
  try {
    const posted = new Set<string>();
    for (const [i, line] of block.entries()) {
      if (!line.startsWith('curl')) continue;
      // -w prints the status after the body: the line under each command shows both, as curl prints them.
      const request = /^curl -s -w ' %\{http_code\}\\n' -X POST http:\/\/localhost:8080(\S+) -H 'Content-Type: application\/json' +-d '([^']*)'$/.exec(line);
      assert.ok(request, `cannot read ${line}`);
      // A query (the unsubscribe token) is part of the request, not of the endpoint's path.
      posted.add(request[1]!.split('?')[0]!);
      const expected = /^# (.*)$/.exec(block[i + 1] ?? '');
      assert.ok(expected, `no "# <what curl prints>" line after ${line}`);
      const run = await shell(line.replace('http://localhost:8080', `http://127.0.0.1:${server.port}`));
      assert.is(run.code, 0, `${line}: ${run.stderr} (curl must be on the PATH)`);
      const pattern = expected[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<id>/g, '[A-Za-z0-9_-]+');
      assert.match(run.stdout, new RegExp(`^${pattern}\n$`), line);
    }
    const publicPosts = API_ROUTES.filter((route) => route.method === 'POST' && !route.path.startsWith('/webhooks/')).map((route) =>
      `${V1_PREFIX}${route.path}`
    );
    assert.equal([...posted].sort(), publicPosts.sort());
  } finally {
    await server.close();
  }
});

test('docs/configuration.md gives the exit codes of server/cli/command.ts, and every command named in the docs exists', () => {
  const codes = section(read('docs/configuration.md'), 'Operator commands');
  const documented = [...codes.matchAll(/^\| (\d+) \|/gm)].map((m) => Number(m[1]));
  assert.equal(documented.sort((a, b) => a - b), Object.values(EXIT).sort((a, b) => a - b));
  const help = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', '--help'], { cwd: root, encoding: 'utf8' });
  const commands = new Set([...help.stdout.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1]));
  for (const file of docFiles) {
    for (const [, word] of read(file).matchAll(/`(?:npx )?converter-site-api (\w[\w-]*)/g)) {
      assert.ok(commands.has(word!), `${file} names \`converter-site-api ${word}\`, which is not a command`);
    }
  }
});

test("docs/deploy.md's export commands run as written and write exactly the data", () => {
  const lines = shellBlocks(section(read('docs/deploy.md'), 'Exports')).flat();
  assert.ok(lines.length >= 4, 'the Exports section lost its commands');
  // A project directory of its own, so the files the commands write land there; `converter-site-api` is the
  // program from source, as the installed bin would run it.
  const dir = mkdtempSync(join(tmpdir(), 'docs-export-'));
  try {
    for (const name of ['package.json', 'server', 'node_modules']) symlinkSync(join(root, name), join(dir, name));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin/converter-site-api'), `#!/bin/sh\nexec "${process.execPath}" --import tsx "${join(root, 'server/cli/main.ts')}" "$@"\n`);
    chmodSync(join(dir, 'bin/converter-site-api'), 0o755);
    const env = { PATH: `${join(dir, 'bin')}:${process.env['PATH'] ?? ''}`, HOME: process.env['HOME'] ?? '', STORAGE: 'memory' };
    for (const line of lines) {
      rmSync(join(dir, 'feedback.csv'), { force: true });
      const run = spawnSync('/bin/sh', ['-c', line], { cwd: dir, env, encoding: 'utf8' });
      assert.is(run.status, 0, `${line}: ${run.stderr}`);
      const file = /(?:> |--out )(\S+)/.exec(line)?.[1];
      assert.ok(file, `${line} names no file`);
      // STORAGE=memory: an empty export is the CSV header or an empty JSON array.
      const expected = line.includes('--format csv') ? 'id,receivedAt,type,rating,appVersion,email,description,handledAt\r\n' : '[]\n';
      assert.is(readFileSync(join(dir, file), 'utf8'), expected, line);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
