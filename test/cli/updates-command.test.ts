/**
 * `converter-site-api updates` as an operator types it, in process (test/_cli.ts), the operator API
 * answered by an app in process with a real online key: root-key, sign-root (offline, into a temporary
 * folder), publish-root, status; a rotation co-signed by the old root key is accepted, one signed by the
 * new key alone is refused by sign-root and, sent anyway, by the server, each with the problem sentence;
 * the usage mistakes and the help.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey } from '../../core/licensing/license.ts';
import { buildRoot, createTufSigner, envelopeText, signEnvelope, type TufSigner } from '../../core/tuf/index.ts';
import { runCommand } from '../_cli.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { createTestApp, type TestApp } from '../_setup.ts';

const OPERATOR_URL = 'http://operator.test';

interface Context {
  dir: string;
  t: TestApp;
  online: TufSigner;
}
const test = suite<Context>('updates command', {} as Context);

test.before.each(async (context) => {
  context.dir = mkdtempSync(join(tmpdir(), 'updates-command-'));
  context.online = await createTufSigner(await generateSigningKey());
  context.t = await createTestApp({ operatorToken: OPERATOR_TOKEN, updates: { signer: context.online } });
});
test.after.each(({ dir }) => rmSync(dir, { recursive: true, force: true }));

const updates = ({ t }: Context, args: string[]) => runCommand(['updates', ...args], { OPERATOR_URL, OPERATOR_TOKEN }, { [OPERATOR_URL]: t.app.operator! });

/** `updates root-key` saved to a file, as the operator does; the file's path and the keyid it printed. */
async function rootKeyFile(context: Context, name: string): Promise<{ path: string; keyid: string }> {
  const made = await updates(context, ['root-key']);
  assert.is(made.code, 0, made.stderr);
  const path = join(context.dir, name);
  writeFileSync(path, made.stdout);
  const keyid = /^root keyid ([0-9a-f]{64})$/m.exec(made.stderr)![1]!;
  assert.is((await createTufSigner(made.stdout.trim())).keyid, keyid);
  return { path, keyid };
}

const nextYear = () => new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);

test('root-key, sign-root, publish-root, status: root 1 of stable, then a rotation signed by the old and new keys', async (context) => {
  const first = await updates(context, ['root-key']);
  assert.match(first.stdout, /^[A-Za-z0-9+/]+=*\n$/);
  assert.match(
    first.stderr,
    /^root keyid [0-9a-f]{64}\npublic key [0-9a-f]{64}\nKeep the private key \(stdout\) offline, with a copy somewhere safe: it signs every root, and the server never needs it\.\n$/,
  );
  const status0 = await updates(context, ['status']);
  assert.is(status0.code, 0, status0.stderr);
  const hex = status0.stdout.split('\n')[3]!;
  assert.is(hex, context.online.key.keyval.public, 'the hex key on a line of its own');
  const old = await rootKeyFile(context, 'root-1.key');
  const out1 = join(context.dir, '1.root.json');
  const expires = nextYear();
  const signed = await updates(context, ['sign-root', '--key', old.path, '--online-key', hex, '--expires', expires, '--out', out1]);
  assert.is(signed.code, 0, signed.stderr);
  assert.is(
    signed.stderr,
    `wrote ${out1}: root version 1, expires ${expires}T00:00:00Z\nroot keys (threshold 1): ${old.keyid}\nonline key: ${context.online.keyid}\n` +
      `publish it: converter-site-api updates publish-root ${out1}\n`,
  );
  const published = await updates(context, ['publish-root', out1]);
  assert.equal([published.code, published.stderr], [0, '']);
  assert.is(
    published.stdout,
    `published root 1 of stable, expires ${expires}T00:00:00.000Z\nroot keys: ${old.keyid}\nonline key: ${context.online.keyid}\n`,
  );
  assert.is((await context.t.storage.updateFiles.getUpdateFile('stable', 'root', 1))!.text, readFileSync(out1, 'utf8'));
  const status1 = await updates(context, ['status', '--channel', 'stable']);
  const rows = status1.stdout.split('\n\n')[1]!.trimEnd().split('\n').map((line) => line.split(/ {2,}/));
  assert.equal(rows.slice(0, 2), [['ROLE', 'VERSION', 'EXPIRES', 'STORED'], [
    'root',
    '1',
    `${expires}T00:00:00.000Z`,
    new Date(context.t.clock.now()).toISOString(),
  ]]);
  assert.equal(rows.slice(2), [['timestamp', '-', '-', '-'], ['snapshot', '-', '-', '-'], ['targets', '-', '-', '-']]);
  const json = JSON.parse((await updates(context, ['status', '--json'])).stdout) as { roles: { root: { version: number } } };
  assert.is(json.roles.root.version, 1);

  // The rotation: the new key signs as the new root role, the old co-signs.
  const next = await rootKeyFile(context, 'root-2.key');
  const rotate = ['sign-root', '--key', next.path, '--previous', out1, '--online-key', hex, '--expires', expires];
  const out2 = join(context.dir, '2.root.json');
  const newOnly = await updates(context, [...rotate, '--out', out2]);
  assert.equal([newOnly.code, newOnly.stderr], [
    1,
    'converter-site-api updates: The root is signed by 0 of the 1 keys of root version 1 that must sign it: ' +
    'a rotation is signed by the old root key(s) too (--previous-key). Nothing was written.\n',
  ]);
  const rotated = await updates(context, [...rotate, '--previous-key', old.path, '--out', out2]);
  assert.is(rotated.code, 0, rotated.stderr);
  assert.match(rotated.stderr, `wrote ${out2}: root version 2`);
  const again = await updates(context, ['publish-root', out2, '--json']);
  assert.is(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout), {
    channel: 'stable',
    version: 2,
    expires: `${expires}T00:00:00.000Z`,
    rootKeyids: [next.keyid],
    onlineKeyid: context.online.keyid,
  });
  const refusedWrite = await updates(context, [...rotate, '--previous-key', old.path, '--out', out2]);
  assert.equal([refusedWrite.code, refusedWrite.stderr], [1, `converter-site-api updates: ${out2} exists already: give another --out, or move it away\n`]);
});

test('a rotation signed by the new key alone, sent anyway, is refused by the server with the problem sentence', async (context) => {
  const old = await createTufSigner(await generateSigningKey());
  const next = await createTufSigner(await generateSigningKey());
  const rootOf = (version: number, key: TufSigner) =>
    buildRoot({ version, expires: Date.now() + 400 * 86_400_000, rootKeys: [key.key], rootThreshold: 1, onlineKey: context.online.key });
  const file1 = join(context.dir, '1.root.json');
  writeFileSync(file1, envelopeText(await signEnvelope(await rootOf(1, old), [old])));
  assert.is((await updates(context, ['publish-root', file1])).code, 0);
  const file2 = join(context.dir, '2.root.json');
  writeFileSync(file2, envelopeText(await signEnvelope(await rootOf(2, next), [next])));
  const refused = await updates(context, ['publish-root', file2, '--channel', 'stable']);
  assert.equal([refused.code, refused.stdout], [1, '']);
  assert.is(
    refused.stderr,
    'converter-site-api updates: The root is signed by 0 of the 1 keys of root version 1 that must sign it: ' +
      'a rotation is signed by the old root key(s) too (--previous-key). (invalid_root; 400)\n' +
      'Sign the root again with `converter-site-api updates sign-root` (a rotation with --previous-key too), as the message says.\n',
  );
  const unknown = await updates(context, ['status', '--channel', 'nightly']);
  assert.equal([unknown.code, unknown.stderr.split('\n')[0]], [
    1,
    'converter-site-api updates: No update channel is named "nightly"; the channels are stable, beta. (channel_not_found; 404)',
  ]);
});

test('sign-root --previous names a root file with no keys: a usage error with the reason, nothing written', async (context) => {
  const key = await rootKeyFile(context, 'root-1.key');
  const previous = join(context.dir, '1.root.json');
  const root = JSON.parse(
    envelopeText(
      await signEnvelope(
        await buildRoot({
          version: 1,
          expires: Date.now() + 86_400_000,
          rootKeys: [(await createTufSigner(readFileSync(key.path, 'utf8').trim())).key],
          rootThreshold: 1,
          onlineKey: context.online.key,
        }),
        [],
      ),
    ),
  ) as { signed: Record<string, unknown> };
  delete root.signed['keys'];
  writeFileSync(previous, JSON.stringify(root));
  const out = join(context.dir, '2.root.json');
  const args = [
    'sign-root',
    '--key',
    key.path,
    '--previous',
    previous,
    '--online-key',
    context.online.key.keyval.public,
    '--expires',
    nextYear(),
    '--out',
    out,
  ];
  const refused = await updates(context, args);
  assert.is(refused.code, 64, refused.stderr);
  assert.match(refused.stderr, `--previous ${previous} is not a root file (n.root.json): `);
  assert.not.match(refused.stderr, 'TypeError');
  assert.throws(() => readFileSync(out));
});

test('usage mistakes exit 64; --help lists each action', async (context) => {
  const key = await rootKeyFile(context, 'root.key');
  const hex = context.online.key.keyval.public;
  const cases: [string[], string][] = [
    [[], 'say what to do: root-key, sign-root, publish-root or status'],
    [['rotate'], 'say what to do: root-key, sign-root, publish-root or status'],
    [['publish-root'], 'updates publish-root needs the root file (n.root.json) sign-root wrote'],
    [['status', '--key', key.path], '--key is not an option of updates status'],
    [['sign-root', '--online-key', hex, '--expires', nextYear()], 'sign-root needs --key <file>'],
    [['sign-root', '--key', key.path, '--expires', nextYear()], 'sign-root needs --online-key <hex>'],
    [['sign-root', '--key', key.path, '--online-key', 'abc', '--expires', nextYear()], '--online-key must be the 64 hex digits'],
    [['sign-root', '--key', key.path, '--online-key', hex], 'sign-root needs --expires <YYYY-MM-DD>'],
    [['sign-root', '--key', key.path, '--online-key', hex, '--expires', '2020-01-01'], '--expires 2020-01-01 is not in the future'],
    [['sign-root', '--key', key.path, '--online-key', hex, '--expires', '2031-02-30'], '--expires must be a day written YYYY-MM-DD'],
    [['sign-root', '--key', key.path, '--online-key', hex, '--expires', nextYear(), '--threshold', '2'], 'threshold 2 is not 1 to the 1 distinct root keys'],
    [['sign-root', '--key', key.path, '--online-key', hex, '--expires', nextYear(), '--previous-key', key.path], '--previous-key goes with --previous'],
    [['sign-root', '--key', join(context.dir, 'none.key'), '--online-key', hex, '--expires', nextYear()], 'cannot be read (ENOENT)'],
  ];
  for (const [args, message] of cases) {
    const run = await updates(context, args);
    assert.is(run.code, 64, `${args.join(' ')}: ${run.stderr}`);
    assert.match(run.stderr, message);
  }
  const help = await updates(context, ['--help']);
  assert.is(help.code, 0);
  for (const action of ['root-key', 'sign-root', 'publish-root', 'status']) assert.match(help.stdout, `\n  updates ${action}`);
  for (const flag of ['--key', '--previous', '--previous-key', '--online-key', '--expires', '--threshold', '--out', '--channel']) {
    assert.match(help.stdout, flag);
  }
  const top = await runCommand(['--help'], {});
  assert.match(top.stdout, /^ {2}updates +the update files/m);
});

test.run();
