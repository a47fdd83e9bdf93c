/**
 * The deployment files set only variables the server reads: every variable named in the Dockerfile's ENV,
 * compose.yaml's api service and the systemd unit's Environment= lines has its row in
 * docs/configuration.md, so a misspelt name (which the server would silently ignore) fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const documented = new Set([...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!));
// Node's own, not the server's.
const NODE = new Set(['NODE_ENV']);

function assertDocumented(file: string, names: string[]): void {
  assert.ok(names.length > 0, `${file}: no variables found; the test no longer reads it`);
  for (const name of names) assert.ok(NODE.has(name) || documented.has(name), `${file} sets ${name}, which docs/configuration.md does not document`);
}

test('the Dockerfile sets only documented variables', () => {
  const names = [...read('Dockerfile').matchAll(/^ENV (.*)$/gm)].flatMap((m) => [...m[1]!.matchAll(/(\w+)=/g)].map((n) => n[1]!));
  assertDocumented('Dockerfile', names);
});

test("compose.yaml's api service sets only documented variables", () => {
  const api = /^ {2}api:\n([\s\S]*?)(?=^ {2}\w|^\S)/m.exec(read('compose.yaml'))?.[1] ?? '';
  const environment = /^ {4}environment:\n((?: {6}.*\n|\s*#.*\n)*)/m.exec(api)?.[1] ?? '';
  assertDocumented('compose.yaml', [...environment.matchAll(/^ {6}([A-Z_]+):/gm)].map((m) => m[1]!));
});

test("the systemd unit's Environment= lines set only documented variables", () => {
  const lines = [...read('deploy/converter-site-api.service').matchAll(/^Environment=(.*)$/gm)].map((m) => m[1]!);
  assertDocumented('deploy/converter-site-api.service', lines.flatMap((line) => [...line.matchAll(/(\w+)=/g)].map((m) => m[1]!)));
});

test.run();
