// deno-lint-ignore-file no-explicit-any -- the test walks parsed JSON documents of arbitrary shape
/**
 * package-lock.json's root entry says what package.json says, so that `npm install` on a clean clone
 * leaves the tracked lockfile unchanged (it used to add the root `bin` entry).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';

const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, any>;

test('the lockfile root entry has the name, version, license, bin, engines and dependencies of package.json', () => {
  const manifest = read('package.json');
  const lock = read('package-lock.json');
  const root = lock['packages'][''];
  assert.is(lock['name'], manifest['name']);
  assert.is(lock['version'], manifest['version']);
  for (const field of ['name', 'version', 'license', 'bin', 'engines', 'dependencies', 'devDependencies']) {
    assert.equal(root[field], manifest[field], field);
  }
});

test('every dependency of package.json is locked', () => {
  const manifest = read('package.json');
  const packages = read('package-lock.json')['packages'];
  for (const name of Object.keys({ ...manifest['dependencies'], ...manifest['devDependencies'] })) {
    assert.ok(packages[`node_modules/${name}`], `${name} is in package-lock.json`);
  }
});

test.run();
