/**
 * docs/conformance.md's in-process example runs as written: copied from the doc into a fresh project
 * where the packed package is installed, and run as the doc says (`npx tsx conformance-in-process.ts`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';
import { installProject, packedTarball } from '../package/_packed.ts';

const dir = mkdtempSync(join(tmpdir(), 'conformance-example-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test("docs/conformance.md's in-process example, from the installed package, prints what the doc says", () => {
  const doc = readFileSync(join(ROOT, 'docs/conformance.md'), 'utf8');
  const section = doc.slice(doc.indexOf('In process, with no server'));
  const [, file, command] = /\(`([\w-]+\.ts)`, run with `([^`]+)`\)/.exec(section) ?? [];
  assert.equal([file, command], ['conformance-in-process.ts', 'npx tsx conformance-in-process.ts']);
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  assert.not.match(code, /from '\.|\.\/|\.\.\//, 'the example imports the package, not repository paths');
  const printed = /It prints `([^`]+)`/.exec(section)![1]!;
  const project = join(dir, 'my-site');
  installProject(project, packedTarball(), ['tsx'], { tsx: 'tsx/dist/cli.mjs' });
  writeFileSync(join(project, file!), code);
  const env = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
  const out = execFileSync('/bin/sh', ['-c', command!], { cwd: project, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.is(out.trim(), printed);
});

test.run();
