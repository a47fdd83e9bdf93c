/**
 * The kit is black-box: client/conformance/ imports nothing but its own files, so it knows of this
 * implementation only what the spec says (and it bundles without the core).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';

const KIT = join(ROOT, 'client/conformance');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((
    entry,
  ) => (entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
}

test('every import of client/conformance/ stays inside it', () => {
  const outside: string[] = [];
  let imports = 0;
  for (const file of sources(KIT)) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)) {
      imports++;
      const target = specifier!.startsWith('.') ? resolve(file, '..', specifier!) : specifier!;
      if (!target.startsWith(`${KIT}/`)) outside.push(`${relative(ROOT, file)}: ${specifier}`);
    }
  }
  assert.ok(imports > 30, `read ${imports} imports`);
  assert.equal(outside, []);
});

test.run();
