/**
 * The README's commands for a clone run as written: `npm run conformance -- --base-url URL` runs the kit
 * (npx finds no converter-site-api in a clone, before the package is packed), and `npm run scenarios --
 * --port N` serves the scenarios. Only the address changes (the test's own server, a free port), and the
 * kit's run is narrowed to one clause so that it does not wait out the quota of its one address.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, startServerProcess } from '../_spawn.ts';

/** The shell block that follows `marker` in README.md, one command a line. */
function blockAfter(marker: string): string[] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  assert.ok(text.includes(marker), `README.md has ${marker}`);
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(text.indexOf(marker)))?.[1] ?? '';
  return block.split('\n').map((line) => line.trim()).filter(Boolean);
}

function sh(line: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', line],
      { cwd: ROOT, env: { ...process.env, npm_config_update_notifier: 'false' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

test("the README's `npm run conformance -- --base-url URL` runs the kit from the clone against a server", async () => {
  const [line, ...rest] = blockAfter('**Testing another implementation of the spec**');
  assert.equal([line, rest], ['npm run conformance -- --base-url http://127.0.0.1:8080', []]);
  const server = await startServerProcess();
  try {
    const { code, stdout, stderr } = await sh(`${line!.replace('http://127.0.0.1:8080', server.url)} --only rules.3`);
    assert.is(code, 0, stdout + stderr);
    assert.match(stdout, /PASS {2}version \[rules\.3\]/);
    assert.match(stdout, '\n\n1 passed, 0 failed, 0 skipped\n');
  } finally {
    await server.stop();
  }
});

test("the README's `npm run scenarios -- --port 8787` serves the scenarios from the clone", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = /`(npm run scenarios -- --port 8787)`/.exec(readme)?.[1];
  assert.is(line, 'npm run scenarios -- --port 8787');
  // Its own process group: npm hands SIGTERM to the script's shell, which does not pass it on to node.
  const child = spawn('/bin/sh', ['-c', line!.replace('8787', '0')], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const found = /^http:\/\/127\.0\.0\.1:\d+$/m.exec(output)?.[0];
      if (found) resolve(found);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void closed.then(() => reject(new Error(`npm run scenarios exited before listening:\n${output}`)));
  });
  try {
    const listing = (await (await fetch(`${url}/scenarios`)).json()) as { scenarios: { name: string }[] };
    assert.is(listing.scenarios.length, 46);
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await closed;
  }
  assert.match(output, `46 scenarios at ${url}/scenarios`);
});

test.run();
