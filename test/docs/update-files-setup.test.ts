/**
 * docs/operating.md "Setting up the update files", typed as written: the first shell block's commands run
 * one by one in an empty folder (the root key and the root file land there, as on the operator's
 * machine), each through the program's entry in process (test/_cli.ts), against the operator API of an
 * app in process with its online key; `> file` saves what a command printed, as the shell does. Only
 * `<hex from status>` is replaced, by the hex line `updates status` printed, and the documented
 * `--expires` date by one a year from now (the doc's example date passes some day). Then the app's
 * refresh (the standalone server's, every second) signs the files, and tuf-js, pinned to the 1.root.json
 * the commands wrote, refreshes from them through `app.handle`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { generateSigningKey } from '../../core/licensing/license.ts';
import { createTufSigner } from '../../core/tuf/keys.ts';
import { runCommand } from '../_cli.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { createTestApp, manualClock } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';
import { AppFetcher, tufJsClient } from '../_tuf-js.ts';

const AYEAR_ON = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
const OPERATOR_URL = 'http://operator.test';

/** The commands of the section's first shell block: its lines without comments, in order. */
function documentedCommands(): string[] {
  const doc = readFileSync(join(ROOT, 'docs/operating.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Setting up the update files'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
}

/** A line as the shell reads it: `converter-site-api`'s words, and the file after `>`; null for what only a shell could run. */
function shellWords(line: string): { args: string[]; to: string | null } | null {
  const [command = '', to, ...more] = line.split(' > ');
  if (!/^converter-site-api [\w./: -]+$/.test(command) || more.length > 0 || (to !== undefined && !/^[\w.-]+$/.test(to))) return null;
  return { args: command.split(' ').slice(1), to: to ?? null };
}

test("the section's commands, as typed, give the app a root; it then serves files tuf-js verifies from that root", async () => {
  const commands = documentedCommands();
  assert.equal(commands.map((line) => line.split(' ').slice(0, 3).join(' ')), [
    'converter-site-api updates root-key',
    'converter-site-api updates status',
    'converter-site-api updates sign-root',
    'converter-site-api updates publish-root',
    'converter-site-api updates status',
  ]);
  const clock = manualClock(Math.floor(Date.now() / 1000) * 1000);
  const online = await createTufSigner(await generateSigningKey());
  const { app } = await createTestApp({ clock, storage: createMemoryStorage({ clock }), operatorToken: OPERATOR_TOKEN, updates: { signer: online } });
  const folder = mkdtempSync(join(tmpdir(), 'update-files-setup-'));
  try {
    let hex = '';
    for (const command of commands) {
      const line = command.replace('<hex from status>', hex).replace(/--expires \d{4}-\d\d-\d\d/, `--expires ${AYEAR_ON}`);
      const words = shellWords(line);
      assert.ok(words, `${line}: a command and plain words, at most one > file`);
      const ran = await runCommand(words!.args, { OPERATOR_URL, OPERATOR_TOKEN }, { [OPERATOR_URL]: app.operator! }, folder);
      assert.is(ran.code, 0, `${line}\n${ran.stdout}${ran.stderr}`);
      if (words!.to !== null) writeFileSync(join(folder, words!.to), ran.stdout);
      hex = /^([0-9a-f]{64})$/m.exec(ran.stdout)?.[1] ?? hex;
    }
    assert.is(hex, online.key.keyval.public, "status printed the app's online key");
    const root = readFileSync(join(folder, '1.root.json'), 'utf8');
    assert.is(JSON.parse(root).signed.version, 1);
    await app.refreshReleases();
    const client = tufJsClient({ root }, new AppFetcher(app));
    try {
      await client.updater.refresh();
      assert.is(await client.updater.getTargetInfo('none.msi'), undefined, 'refreshed: no release is published, so no target');
    } finally {
      client.remove();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test.run();
