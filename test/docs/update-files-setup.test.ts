/**
 * docs/operating.md "Setting up the update files", typed as written: the first shell block's commands run
 * one by one through /bin/sh in an empty folder (the root key and the root file land there, as on the
 * operator's machine), `converter-site-api` the repository's CLI, against the server program with its
 * operator listener. Only `<hex from status>` is replaced, by the hex line `updates status` printed, and the
 * documented `--expires` date by one a year from now (the doc's example date passes some day). Then
 * the server serves a signed timestamp, and tuf-js, pinned to the 1.root.json the commands wrote,
 * refreshes from it over HTTP.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Updater } from 'tuf-js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT, startServerProcess } from '../_spawn.ts';

const AYEAR_ON = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
const TOKEN = 'update-files-setup-token-'.padEnd(40, 'x');

/** The commands of the section's first shell block: its lines without comments, in order. */
function documentedCommands(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/operating.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Setting up the update files'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

function sh(line: string, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', line], { cwd, env }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }));
  });
}

test("the section's commands, as typed, give the server a root; it then serves files tuf-js verifies from that root", async () => {
  const commands = documentedCommands();
  assert.equal(commands.map((line) => line.split(' ').slice(0, 3).join(' ')), [
    'converter-site-api updates root-key',
    'converter-site-api updates status',
    'converter-site-api updates sign-root',
    'converter-site-api updates publish-root',
    'converter-site-api updates status',
  ]);
  const server = await startServerProcess({ OPERATOR_PORT: '0', OPERATOR_TOKEN: TOKEN });
  const folder = mkdtempSync(join(tmpdir(), 'update-files-setup-'));
  try {
    const operator = /"operator":"(http:\/\/[^"]+)"/.exec(server.output())?.[1];
    assert.ok(operator, 'the operator listener is on');
    // `converter-site-api` on PATH is the repository's CLI, as `npx` finds the package's.
    const bin = join(folder, '.bin');
    mkdirSync(bin);
    const tsx = import.meta.resolve('tsx');
    writeFileSync(join(bin, 'converter-site-api'), `#!/bin/sh\nexec "${process.execPath}" --import ${tsx} "${join(ROOT, 'server/cli/main.ts')}" "$@"\n`);
    chmodSync(join(bin, 'converter-site-api'), 0o755);
    const env = { PATH: `${bin}:${process.env['PATH'] ?? ''}`, HOME: process.env['HOME'] ?? '', OPERATOR_URL: operator!, OPERATOR_TOKEN: TOKEN };
    let hex = '';
    for (const command of commands) {
      const line = command.replace('<hex from status>', hex).replace(/--expires \d{4}-\d\d-\d\d/, `--expires ${AYEAR_ON}`);
      const ran = await sh(line, folder, env);
      assert.is(ran.code, 0, `${line}\n${ran.stdout}${ran.stderr}`);
      hex = /^([0-9a-f]{64})$/m.exec(ran.stdout)?.[1] ?? hex;
    }
    assert.match(hex, /^[0-9a-f]{64}$/, 'status printed the online key');
    const root = readFileSync(join(folder, '1.root.json'), 'utf8');
    assert.is(JSON.parse(root).signed.version, 1);
    // The server's refresh signs within a second of the publish.
    while ((await fetch(`${server.url}/updates/stable/timestamp.json`)).status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    mkdirSync(join(folder, 'metadata'));
    writeFileSync(join(folder, 'metadata', 'root.json'), root);
    const updater = new Updater({
      metadataBaseUrl: `${server.url}/updates/stable/`,
      targetBaseUrl: `${server.url}/updates/stable/targets/`,
      metadataDir: join(folder, 'metadata'),
    });
    await updater.refresh();
    assert.is(await updater.getTargetInfo('none.msi'), undefined, 'refreshed: no release is published, so no target');
  } finally {
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  }
});

test.run();
