/**
 * The desktop app's steps in docs/updates.md and docs/licensing.md hold (issue 53): the keys of the "which
 * public key to pin" table are those of the files they name, the clock skew's numbers are the recipe's and
 * the signer's, the C# version comparison orders as the server does, and the recipe's User-Agent gets the
 * MSI where a request without one gets the Windows-only page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compareMsiVersions } from '../../core/releases/rollout-rule.ts';
import { OTHER_PUBLIC_KEY, SCENARIO_PUBLIC_KEY } from '../../server/scenarios/test-keys.ts';
import { createTestApp } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const updates = read('docs/updates.md');
const publicKeyOf = (path: string) => (JSON.parse(read(path)) as { publicKey: string }).publicKey;

test('the key table: each test key is the one of the files it names, and the recipes pin the scenario key', () => {
  const table = updates.slice(updates.indexOf('## Which public key to pin'), updates.indexOf('## The check in the desktop app'));
  const row = (key: string) => table.split('\n').find((line) => line.startsWith(`| \`${key}\``)) ?? '';
  assert.is(publicKeyOf('docs/vectors/license-keys.json'), SCENARIO_PUBLIC_KEY);
  assert.match(row(SCENARIO_PUBLIC_KEY), 'docs/vectors/license-keys.json');
  for (const file of ['docs/vectors/update-signatures.json', 'docs/vectors/license-validate.json']) {
    assert.is(publicKeyOf(file), OTHER_PUBLIC_KEY, file);
    assert.match(row(OTHER_PUBLIC_KEY), file);
  }
  assert.match(row(OTHER_PUBLIC_KEY), 'license-other-key');
  assert.match(table, '`converter-site-api license public-key`');
  assert.match(read('server/program.ts'), 'license keys are signed with Ed25519; give the desktop app this public key');
  assert.match(table, 'license keys are signed with Ed25519; give the desktop app this public key');
  assert.match(updates, `private const string PublicKeyBase64Url = "${SCENARIO_PUBLIC_KEY}";`);
});

test("the clock's numbers: 5 minutes before created is the recipe's Skew, 10 minutes after it the signer's lifetime", () => {
  assert.match(updates, 'private static readonly TimeSpan Skew = TimeSpan.FromMinutes(5);');
  const lifetime = /lifetimeSeconds = (\d+)/.exec(read('core/releases/answer-signature.ts'))?.[1];
  assert.is(lifetime, '600');
  assert.match(updates.replace(/\s+/g, ' '), 'accepted from **5 minutes before its `created`**');
  assert.match(updates.replace(/\s+/g, ' '), 'until its **`expires`, 10 minutes after `created`**');
});

test("the C# MsiVersion orders as the server's compareMsiVersions", () => {
  const pattern = /private static readonly Regex Leading = new\(@"([^"]+)"\);/.exec(updates)?.[1];
  assert.ok(pattern, 'the recipe has MsiVersion');
  const leading = new RegExp(pattern!);
  // The recipe's Compare, line for line.
  const fields = (version: string) => {
    const m = leading.exec(version);
    return [1, 2, 3].map((i) => (m?.[i] === undefined ? 0 : Number(m[i])));
  };
  const compare = (a: string, b: string) => {
    const [x, y] = [fields(a), fields(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return Math.sign(x[i]! - y[i]!);
    return 0;
  };
  const versions = ['2.5.0-beta.1', '2.5.0', '2.7', '2.7.0', '2.7.0.1', '2.6.2', '10.0.0', '9.9.9', '2.10.0', '2.9.65535', '3'];
  for (const a of versions) {
    for (const b of versions) assert.is(compare(a, b), Math.sign(compareMsiVersions(a, b)), `${a} vs ${b}`);
  }
});

test("the recipe's User-Agent gets the MSI from GET download; no User-Agent (a bare HttpClient) gets the Windows-only page", async () => {
  const agent = /UserAgent\.ParseAdd\("([^"]+)"\)/.exec(updates)?.[1];
  assert.ok(agent, 'updates.md sets a User-Agent');
  const { app } = await createTestApp();
  const download = (headers: Record<string, string>) => app.handle({ method: 'GET', path: '/api/v1/download', clientIp: '192.0.2.7', headers });
  const bare = await download({});
  assert.is(bare.status, 302);
  assert.match(String(bare.headers['location']), /\/windows-only$/);
  assert.is(bare.headers['release-version'], undefined);
  const named = await download({ 'user-agent': agent! });
  assert.is(named.status, 302);
  assert.match(String(named.headers['location']), /LegacySheetConverter-2\.4\.1-x64\.msi$/);
  assert.is(named.headers['release-version'], '2.4.1');
});

test.run();
