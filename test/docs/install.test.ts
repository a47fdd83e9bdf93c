/**
 * The install instructions run. The package is not published, so every command in README.md and docs/
 * that installs it names the tarball `npm pack` makes (never the bare name, which npm answers 404, and no
 * JSR specifier), and the README's and deploy.md's lines are run as written in empty projects. npm is
 * pointed at an unreachable registry on 127.0.0.1 and finds the package's dependencies already in
 * node_modules (copied from this checkout), standing in for the registry these tests do not reach.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';
import { packedTarball } from '../package/_packed.ts';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TARBALL = `converter-site-api-${VERSION}.tgz`;
/** The package's runtime dependencies, as its package.json names them (none of them has dependencies of its own). */
const DEPENDENCIES = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies);
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const INSTALL = /\b(?:npm (?:install|i|add)|bun add|pnpm add|yarn add|deno add)\b[^`|\n]*/g;

/** The shell block that follows `marker` in a document. */
function blockAfter(file: string, marker: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(text.indexOf(marker)))?.[1];
  assert.ok(block !== undefined && text.includes(marker), `${file} has a sh block after ${marker}`);
  return block!.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

/** Runs one documented line in a shell, with npm kept off the network. */
function sh(line: string, cwd: string): string {
  const env = { ...process.env, npm_config_registry: 'http://127.0.0.1:9/', npm_config_audit: 'false', npm_config_fund: 'false' };
  return execFileSync('/bin/sh', ['-c', line], { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** An empty project whose node_modules already holds the package's dependencies. */
function projectWithDependencies(dir: string, manifest: boolean): void {
  mkdirSync(dir, { recursive: true });
  for (const name of DEPENDENCIES) cpSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), { recursive: true, dereference: true });
  if (manifest) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'my-site', private: true, type: 'module' }));
}

/** The package as installed in a project: its version, its client loads, its program answers --help. */
function assertInstalled(project: string): void {
  const installed = JSON.parse(readFileSync(join(project, 'node_modules/converter-site-api/package.json'), 'utf8')) as { version: string };
  assert.is(installed.version, VERSION);
  const loaded = sh(`node --input-type=module -e "import('converter-site-api/client').then((m) => console.log(typeof m.createClient))"`, project);
  assert.is(loaded.trim(), 'function');
  assert.match(sh('node_modules/.bin/converter-site-api --help', project), /^usage: converter-site-api/);
}

test('every install command in the docs names the packed tarball, and none names JSR', () => {
  let commands = 0;
  for (const file of DOCS) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    assert.not.match(text, /jsr:/, `${file} names a JSR package, which does not exist`);
    for (const line of text.split('\n')) {
      if (/answer 404|not published/.test(line)) continue; // the sentence that says the bare name does not work
      for (const command of line.match(INSTALL) ?? []) {
        if (!command.includes('converter-site-api')) continue;
        commands++;
        assert.match(command, /converter-site-api-(?:<version>|\d+\.\d+\.\d+)\.tgz|…tgz/, `${file}: ${command}`);
        const version = /converter-site-api-(\d+\.\d+\.\d+)\.tgz/.exec(command)?.[1];
        if (version) assert.is(version, VERSION, `${file}: ${command}`);
      }
    }
  }
  assert.ok(commands >= 10, `${commands} install commands found`);
});

test("the README's install lines, run as written, install the package into a project", () => {
  const dir = mkdtempSync(join(tmpdir(), 'install-readme-'));
  try {
    const checkout = join(dir, 'converter-site-api');
    mkdirSync(checkout);
    const [pack, cd, install, ...rest] = blockAfter('README.md', '**Installing the package.**');
    assert.equal([pack, cd, rest], ['npm pack', 'cd ../my-site', []]);
    copyFileSync(packedTarball(), join(checkout, TARBALL)); // what `npm pack` made (test/package/_packed.ts)
    const project = join(dir, 'my-site');
    projectWithDependencies(project, true);
    sh(install!, project);
    assertInstalled(project);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("deploy.md's release install, run as written, installs the program", () => {
  const dir = mkdtempSync(join(tmpdir(), 'install-release-'));
  try {
    const lines = blockAfter('docs/deploy.md', '### The release build');
    const install = lines.find((line) => line.includes('npm install'))!;
    assert.match(install, `npm install --omit=dev /path/to/${TARBALL}`);
    copyFileSync(packedTarball(), join(dir, TARBALL));
    const project = join(dir, 'opt');
    projectWithDependencies(project, false);
    sh(install.replace('/path/to/', `${dir}/`), project);
    assertInstalled(project);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
