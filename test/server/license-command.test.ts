import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLicenseIssuer, generateSigningKey, publicKeyOf } from '../../core/licensing/license.ts';
import { UsageError } from '../../server/cli/command.ts';
import { runLicenseCommand } from '../../server/cli/license-command.ts';
import { openSigningKey } from '../../server/license-key.ts';
import { openStorage } from '../../server/open-storage.ts';
import { storageSettings } from '../../server/storage-config.ts';
import { closeTestDatabases, freshPgliteDir, testPostgres } from '../_databases.ts';
import { compactClaims, issueLegacyLicenseKey } from '../_licenses.ts';
import { memoryLogger } from '../_setup.ts';

const cwd = process.cwd();

test('public-key prints the base64url raw public key of LICENSE_SIGNING_KEY', async () => {
  const key = await generateSigningKey();
  assert.equal(await runLicenseCommand(['public-key'], { LICENSE_SIGNING_KEY: key }, cwd), {
    code: 0,
    stdout: `${await publicKeyOf(key)}\n`,
    stderr: '',
  });
});

test('public-key without LICENSE_SIGNING_KEY on memory storage explains how to get a lasting key (exit 78)', async () => {
  const result = await runLicenseCommand(['public-key'], { STORAGE: 'memory' }, cwd);
  assert.is(result.code, 78);
  assert.match(result.stderr, /^LICENSE_SIGNING_KEY is not set, and STORAGE=memory keeps no generated key between runs\./);
  assert.match(result.stderr, 'converter-site-api license generate-key');
});

/** Opens the storage of `env` as the server does and lets it generate and keep its signing key. */
async function startOnce(env: NodeJS.ProcessEnv): Promise<string> {
  const storage = await openStorage(storageSettings(env, cwd), { logger: memoryLogger(), background: false });
  try {
    return (await openSigningKey(undefined, storage)).publicKey;
  } finally {
    await storage.close();
  }
}

test('public-key on PGlite reads the key the server keeps in DATA_DIR, and says when there is none yet', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'license-pglite-'));
  const env = { DATA_DIR: dataDir };
  try {
    assert.equal(await runLicenseCommand(['public-key'], env, cwd), {
      code: 78,
      stdout: '',
      stderr: `LICENSE_SIGNING_KEY is not set, and DATA_DIR ${dataDir} holds no database yet.\n` +
        'The server generates and keeps one on its first start with this storage; or set LICENSE_SIGNING_KEY (`converter-site-api license generate-key`).\n',
    });
    assert.not.ok(existsSync(join(dataDir, 'PG_VERSION')), 'the command created no database');
    rmSync(dataDir, { recursive: true });
    await freshPgliteDir(dataDir);
    assert.match((await runLicenseCommand(['public-key'], env, cwd)).stderr, `DATA_DIR ${dataDir} holds no license-signing-key yet.\n`);
    const publicKey = await startOnce(env);
    assert.equal(await runLicenseCommand(['public-key'], env, cwd), { code: 0, stdout: `${publicKey}\n`, stderr: '' });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('public-key on PGlite while the server holds DATA_DIR points to the startup log (exit 78)', async () => {
  const dataDir = await freshPgliteDir();
  const storage = await openStorage({ kind: 'pglite', dataDir }, { logger: memoryLogger(), background: false });
  try {
    const result = await runLicenseCommand(['public-key'], { STORAGE: 'pglite', DATA_DIR: dataDir }, cwd);
    assert.is(result.code, 78);
    assert.match(result.stderr, `DATA_DIR ${dataDir} is in use by process ${process.pid}`);
    assert.match(result.stderr, "The running server printed the public key in its startup log ('license keys are signed with Ed25519')");
  } finally {
    await storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('public-key and verify on Postgres read the key the server keeps in its schema', async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  const env = { DATABASE_URL: pg.url, DATABASE_SCHEMA: schema };
  try {
    const none = await runLicenseCommand(['public-key'], env, cwd);
    assert.is(none.code, 78);
    assert.match(none.stderr, `LICENSE_SIGNING_KEY is not set, and the database (schema ${schema}) holds no license-signing-key yet.\n`);
    const publicKey = await startOnce(env);
    assert.equal(await runLicenseCommand(['public-key'], env, cwd), { code: 0, stdout: `${publicKey}\n`, stderr: '' });
    const storage = await openStorage(storageSettings(env, cwd), { logger: memoryLogger(), background: false });
    const license = await (await openSigningKey(undefined, storage)).issuer.issue({
      sessionId: 'cs_pg',
      sku: 'standard',
      product: 'standard',
      issuedAt: 1_795_000_000_000,
      simulated: false,
    });
    await storage.close();
    assert.equal(await runLicenseCommand(['verify', license], env, cwd), {
      code: 0,
      stdout: `VALID ${JSON.stringify(compactClaims('standard', 'standard', 'cs_pg', 1_795_000_000_000))}\n`,
      stderr: '',
    });
  } finally {
    await pg.dropSchema(schema);
    await closeTestDatabases();
  }
});

test('verify accepts a key issued with the signing key and prints its payload; anything else is INVALID', async () => {
  const key = await generateSigningKey();
  const issuer = await createLicenseIssuer(key);
  const license = await issuer.issue({ sessionId: 'cs_test_1', sku: 'plus_bundle', product: 'plus', issuedAt: 1_795_000_000_000, simulated: false });
  const env = { LICENSE_SIGNING_KEY: key };
  // sidHash: the first 7 bytes of SHA-256("cs_test_1").
  const valid = { code: 0, stdout: 'VALID {"v":2,"product":"plus","sku":"plus_bundle","sidHash":"af6c79c37d5311","issuedOn":"2026-11-18"}\n', stderr: '' };
  assert.equal(await runLicenseCommand(['verify', license], env, cwd), valid);
  // As a person types it: lower case, dashes dropped, in several words.
  const bare = license.replace(/-/g, '').toLowerCase();
  assert.equal(await runLicenseCommand(['verify', bare], env, cwd), valid);
  assert.equal(await runLicenseCommand(['verify', bare.slice(0, 40), bare.slice(40, 80), `${bare.slice(80)}-`], env, cwd), valid);
  assert.equal(await runLicenseCommand(['verify', `${license.slice(0, 60)} ${license.slice(60)}`], env, cwd), valid);
  const legacy = await issueLegacyLicenseKey(key, {
    sessionId: 'cs_test_1',
    sku: 'plus_bundle',
    product: 'plus',
    issuedAt: 1_795_000_000_000,
    simulated: false,
  });
  assert.equal(await runLicenseCommand(['verify', legacy], env, cwd), {
    code: 0,
    stdout: 'VALID {"v":1,"product":"plus","sku":"plus_bundle","sid":"cs_test_1","iat":1795000000}\n',
    stderr: '',
  });
  const tampered = license.replace(/^(.{9})./, (start) => (license[9] === 'A' ? `${start}B` : `${start}A`));
  const invalid = { code: 1, stdout: '', stderr: 'INVALID: the key is malformed or its signature does not match this public key.\n' };
  assert.equal(await runLicenseCommand(['verify', tampered], env, cwd), invalid);
  assert.equal(await runLicenseCommand(['verify', 'not-a-key'], env, cwd), invalid);
  assert.equal(await runLicenseCommand(['verify', legacy.replace(/^key\/./, (prefix) => (prefix.endsWith('e') ? 'key/f' : 'key/e'))], env, cwd), invalid);
  const simulated = await issuer.issue({ sessionId: 'cs_test_1', sku: 'standard', product: 'standard', issuedAt: 1_795_000_000_000, simulated: true });
  assert.equal(await runLicenseCommand(['verify', simulated.toLowerCase()], env, cwd), {
    code: 1,
    stdout: '',
    stderr: 'INVALID: this key comes from the payment simulator: no money was taken, and no app accepts it as a license.\n',
  });
  const other = await publicKeyOf(await generateSigningKey());
  assert.equal(await runLicenseCommand(['verify', license, '--public-key', other], {}, cwd), invalid);
  assert.is((await runLicenseCommand(['verify', license, '--public-key', await publicKeyOf(key)], {}, cwd)).code, 0);
  // base64url may start with a dash: still the flag's value, not a flag.
  assert.equal(await runLicenseCommand(['verify', license, '--public-key', `-${other.slice(1)}`], {}, cwd), invalid);
});

test('generate-key prints a usable LICENSE_SIGNING_KEY and its public key', async () => {
  const result = await runLicenseCommand(['generate-key'], {}, cwd);
  const [line, comment] = result.stdout.trimEnd().split('\n');
  const key = line!.replace(/^LICENSE_SIGNING_KEY=/, '');
  assert.is(comment, `# public key for the desktop app: ${await publicKeyOf(key)}`);
});

test('a command line it does not understand is a usage error naming the mistake', async () => {
  const mistakes: [string[], string][] = [
    [[], 'say which command: public-key, verify, generate-key or updates'],
    [['sign'], 'unknown command "sign": public-key, verify, generate-key or updates'],
    [['verify'], 'verify needs the license key to check'],
    [['public-key', 'extra'], 'public-key takes no argument "extra"'],
    [['generate-key', '--public-key', 'x'], 'generate-key takes no --public-key'],
    [['public-key', '--pubkey', 'x'], "Unknown option '--pubkey'"],
  ];
  for (const [args, message] of mistakes) {
    try {
      await runLicenseCommand(args, {}, cwd);
      assert.unreachable(`${args.join(' ')} was accepted`);
    } catch (error) {
      assert.instance(error, UsageError);
      assert.is((error as Error).message, message);
    }
  }
});

test.run();
