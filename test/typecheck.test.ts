/**
 * The sources and the tests type-check under the project's strict settings (`npm run typecheck`, less the
 * Deno check): `npm test` runs the tests through tsx, which strips types without checking them, so a type
 * error could otherwise reach main with every test passing.
 *
 * tsc runs incrementally, its build info kept in node_modules/.cache per checkout and project: a file
 * that changed since the last run, and every file that depends on it, is checked again, and the answer
 * is the one a full check gives (tsc keeps each file's diagnostics by the hash of what it read).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from './_spawn.ts';

const TSC = join(ROOT, 'node_modules/.bin/tsc');
/** Where the build info is kept: node_modules may be shared by several checkouts, so one folder for each. */
const CACHE = join(ROOT, 'node_modules/.cache/converter-site-api-tsc', createHash('sha256').update(ROOT).digest('hex').slice(0, 12));
mkdirSync(CACHE, { recursive: true });

for (const project of ['tsconfig.json', 'tsconfig.bun.json']) {
  test(`tsc --noEmit -p ${project} reports no error`, () => {
    const buildInfo = join(CACHE, project.replace(/\.json$/, '.tsbuildinfo'));
    const result = spawnSync(TSC, ['--noEmit', '-p', project, '--incremental', '--tsBuildInfoFile', buildInfo], { cwd: ROOT, encoding: 'utf8' });
    assert.is(`${result.stdout}${result.stderr}`, '');
    assert.is(result.status, 0);
  });
}

test.run();
