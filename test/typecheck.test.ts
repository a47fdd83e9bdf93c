/**
 * The sources and the tests type-check under the project's strict settings (`npm run typecheck`, less the
 * Deno check): `npm test` runs the tests through tsx, which strips types without checking them, so a type
 * error could otherwise reach main with every test passing.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './_spawn.ts';

const TSC = join(ROOT, 'node_modules/.bin/tsc');

for (const project of ['tsconfig.json', 'tsconfig.bun.json']) {
  test(`tsc --noEmit -p ${project} reports no error`, () => {
    const result = spawnSync(TSC, ['--noEmit', '-p', project], { cwd: ROOT, encoding: 'utf8' });
    assert.is(`${result.stdout}${result.stderr}`, '');
    assert.is(result.status, 0);
  });
}

test.run();
