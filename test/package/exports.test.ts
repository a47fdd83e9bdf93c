import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildEntries, compareExportMaps, compareSelfImports, readDenoExports, readPackageExports } from '../../scripts/export-map.ts';

test('package.json and deno.json export the same entry points, types first', () => {
  assert.equal(compareExportMaps(readPackageExports(ROOT), readDenoExports(ROOT)), []);
});

test('every entry point the issue names is exported', () => {
  const subpaths = Object.keys(readDenoExports(ROOT));
  for (const subpath of ['.', './node', './fetch', './deno', './bun', './workers', './memory', './postgres', './pglite', './stripe']) {
    assert.ok(subpaths.includes(subpath), subpath);
  }
});

test('the check reports a subpath missing on either side and a wrong condition order', () => {
  const deno = { '.': './core/index.ts', './postgres': './adapters/postgres/index.ts' };
  const pkg = {
    '.': { default: './dist/index.js', types: './dist/index.d.ts' },
    './pglite': { types: './dist/pglite.d.ts', default: './dist/pglite.js' },
  };
  assert.equal(compareExportMaps(pkg, deno), [
    'package.json exports lacks "./postgres" (deno.json has it)',
    'package.json exports["."] should be {"types":"./dist/index.d.ts","default":"./dist/index.js"} (types first), not {"default":"./dist/index.js","types":"./dist/index.d.ts"}',
    'deno.json exports lacks "./pglite" (package.json has it)',
  ]);
});

test('tsup builds each deno.json source to dist/<name>', () => {
  assert.equal(buildEntries({ '.': './core/index.ts', './memory': './adapters/memory/index.ts' }), {
    index: './core/index.ts',
    memory: './adapters/memory/index.ts',
  });
});

test('deno.json imports the package by its own name from the exported sources', () => {
  const { imports } = JSON.parse(readFileSync(join(ROOT, 'deno.json'), 'utf8')) as { imports: Record<string, string> };
  assert.equal(compareSelfImports('converter-site-api', imports, readDenoExports(ROOT)), []);
  assert.equal(compareSelfImports('converter-site-api', { 'converter-site-api': './core/index.ts' }, { '.': './core/index.ts', './memory': './m.ts' }), [
    'deno.json imports["converter-site-api/memory"] should be "./m.ts"',
  ]);
});

test.run();
