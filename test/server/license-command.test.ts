import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLicenseIssuer, generateSigningKey, publicKeyOf } from '../../core/license.ts';
import { runLicenseCommand } from '../../server/license-command.ts';

const cwd = process.cwd();

test('public-key prints the base64url raw public key of LICENSE_SIGNING_KEY', async () => {
  const key = await generateSigningKey();
  assert.equal(await runLicenseCommand(['public-key'], { LICENSE_SIGNING_KEY: key }, cwd), {
    code: 0,
    stdout: `${await publicKeyOf(key)}\n`,
    stderr: '',
  });
});

test('public-key without LICENSE_SIGNING_KEY on memory storage explains how to get a lasting key', async () => {
  const result = await runLicenseCommand(['public-key'], { STORAGE: 'memory' }, cwd);
  assert.is(result.code, 2);
  assert.match(result.stderr, /^LICENSE_SIGNING_KEY is not set, and STORAGE=memory keeps no generated key between runs\./);
  assert.match(result.stderr, 'npm run license -- generate-key');
});

test('verify accepts a key issued with the signing key and prints its payload; anything else is INVALID', async () => {
  const key = await generateSigningKey();
  const issuer = await createLicenseIssuer(key);
  const license = await issuer.issue({ sessionId: 'cs_test_1', sku: 'plus_bundle', product: 'plus', issuedAt: 1_795_000_000_000 });
  const env = { LICENSE_SIGNING_KEY: key };
  assert.equal(await runLicenseCommand(['verify', license], env, cwd), {
    code: 0,
    stdout: 'VALID {"v":1,"product":"plus","sku":"plus_bundle","sid":"cs_test_1","iat":1795000000}\n',
    stderr: '',
  });
  const tampered = license.replace(/^key\/./, (prefix) => (prefix.endsWith('e') ? 'key/f' : 'key/e'));
  const invalid = { code: 1, stdout: '', stderr: 'INVALID: the key is malformed or its signature does not match this public key.\n' };
  assert.equal(await runLicenseCommand(['verify', tampered], env, cwd), invalid);
  assert.equal(await runLicenseCommand(['verify', 'not-a-key'], env, cwd), invalid);
  const other = await publicKeyOf(await generateSigningKey());
  assert.equal(await runLicenseCommand(['verify', license, '--public-key', other], {}, cwd), invalid);
  assert.is((await runLicenseCommand(['verify', license, '--public-key', await publicKeyOf(key)], {}, cwd)).code, 0);
});

test('generate-key prints a usable LICENSE_SIGNING_KEY and its public key; unknown commands print usage', async () => {
  const result = await runLicenseCommand(['generate-key'], {}, cwd);
  const [line, comment] = result.stdout.trimEnd().split('\n');
  const key = line!.replace(/^LICENSE_SIGNING_KEY=/, '');
  assert.is(comment, `# public key for the desktop app: ${await publicKeyOf(key)}`);
  const usage = await runLicenseCommand(['sign'], {}, cwd);
  assert.is(usage.code, 2);
  assert.match(usage.stderr, /^usage: npm run license -- <command>/);
});

test('the npm script runs the command with its exit code', async () => {
  const key = await generateSigningKey();
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/license-cli.ts', 'public-key'], {
    cwd,
    env: { ...process.env, LICENSE_SIGNING_KEY: key },
    encoding: 'utf8',
  });
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stdout, `${await publicKeyOf(key)}\n`);
});

test.run();
