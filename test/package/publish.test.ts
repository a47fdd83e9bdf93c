/**
 * Ready to publish on npm and JSR: package.json and deno.json carry the same version, the npm metadata is
 * there, and `deno publish --dry-run` passes, slow-type check included (no --allow-slow-types). It needs
 * no network: deno.json's nodeModulesDir "manual" resolves the npm: imports from node_modules.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
const deno = JSON.parse(readFileSync(join(ROOT, 'deno.json'), 'utf8')) as Record<string, unknown>;

test('package.json and deno.json carry the same version, a semver one, with a CHANGELOG entry', () => {
  assert.is(deno['version'], pkg['version']);
  assert.match(String(pkg['version']), /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  assert.ok(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8').includes(`## [${String(pkg['version'])}]`), 'CHANGELOG.md has no section for this version');
});

test('package.json names the repository, homepage and issue tracker', () => {
  const repository = pkg['repository'] as { type: string; url: string };
  assert.is(repository.type, 'git');
  assert.match(repository.url, /^git\+https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
  const home = repository.url.slice('git+'.length, -'.git'.length);
  assert.is(pkg['homepage'], `${home}#readme`);
  assert.equal(pkg['bugs'], { url: `${home}/issues` });
});

test('deno publish --dry-run passes with no slow types', () => {
  // --allow-dirty: the check must pass on a working tree with uncommitted edits too.
  const { FORCE_COLOR: _color, ...env } = process.env;
  const result = spawnSync(join(ROOT, 'node_modules/.bin/deno'), ['publish', '--dry-run', '--allow-dirty'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
  });
  // Deno colours its output whenever FORCE_COLOR is set, even to 0 (npm test sets it).
  const output = (result.stdout + result.stderr).replace(/\x1b\[[0-9;]*m/g, '');
  assert.is(result.status, 0, output);
  assert.match(output, /Checking for slow types in the public API/);
  assert.match(output, /Success Dry run complete/);
  assert.match(output, /client\/index\.ts/);
  assert.not.match(output, /test\//);
});

test.run();
