import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../server/config-error.ts';
import { storageSettings } from '../../server/storage-config.ts';

const URL_ = 'postgres://site@db.example.com:5432/site';

test('nothing set means durable PGlite in ./data', () => {
  assert.equal(storageSettings({}, '/srv/site'), { kind: 'pglite', dataDir: '/srv/site/data', diskReserveBytes: 67108864 });
});

test('DATA_DIR is resolved from the working directory', () => {
  assert.equal(storageSettings({ DATA_DIR: 'var/db' }, '/srv/site'), { kind: 'pglite', dataDir: '/srv/site/var/db', diskReserveBytes: 67108864 });
  assert.equal(storageSettings({ DATA_DIR: '/data' }, '/srv/site'), { kind: 'pglite', dataDir: '/data', diskReserveBytes: 67108864 });
});

test('DATABASE_URL alone implies postgres in schema public', () => {
  assert.equal(storageSettings({ DATABASE_URL: URL_ }, '/'), {
    kind: 'postgres',
    url: URL_,
    schema: 'public',
    rateLimitTimeoutMs: 300,
    preparedStatements: true,
  });
  assert.equal(storageSettings({ DATABASE_URL: URL_, DATABASE_SCHEMA: 'site_api' }, '/'), {
    kind: 'postgres',
    url: URL_,
    schema: 'site_api',
    rateLimitTimeoutMs: 300,
    preparedStatements: true,
  });
});

test('RATE_LIMIT_DB_TIMEOUT_MS sets how long the shared rate-limit counters may take', () => {
  assert.equal(storageSettings({ DATABASE_URL: URL_, RATE_LIMIT_DB_TIMEOUT_MS: '2000' }, '/'), {
    kind: 'postgres',
    url: URL_,
    schema: 'public',
    rateLimitTimeoutMs: 2000,
    preparedStatements: true,
  });
  for (const bad of ['0', '-1', '1.5', 'soon', '2147483648']) {
    fails(
      { DATABASE_URL: URL_, RATE_LIMIT_DB_TIMEOUT_MS: bad },
      `RATE_LIMIT_DB_TIMEOUT_MS must be a whole number of ms from 1 to 2147483647, not ${JSON.stringify(bad)}`,
    );
  }
});

test('DATABASE_PREPARED_STATEMENTS=false turns prepared statements off, for a pooler that cannot keep them', () => {
  for (const [text, prepared] of [['false', false], ['FALSE', false], ['true', true], ['', true]] as const) {
    assert.equal(storageSettings({ DATABASE_URL: URL_, DATABASE_PREPARED_STATEMENTS: text }, '/'), {
      kind: 'postgres',
      url: URL_,
      schema: 'public',
      rateLimitTimeoutMs: 300,
      preparedStatements: prepared,
    });
  }
  fails({ DATABASE_URL: URL_, DATABASE_PREPARED_STATEMENTS: 'no' }, 'DATABASE_PREPARED_STATEMENTS must be true or false, not "no"');
});

test('STORAGE wins over DATABASE_URL', () => {
  assert.equal(storageSettings({ STORAGE: 'memory', DATABASE_URL: URL_ }, '/'), { kind: 'memory' });
  assert.equal(storageSettings({ STORAGE: 'pglite', DATABASE_URL: URL_ }, '/x'), { kind: 'pglite', dataDir: '/x/data', diskReserveBytes: 67108864 });
});

test('DISK_RESERVE_BYTES sets the PGlite disk reserve; 0 turns it off', () => {
  assert.equal(storageSettings({ DISK_RESERVE_BYTES: '1048576' }, '/d'), { kind: 'pglite', dataDir: '/d/data', diskReserveBytes: 1048576 });
  assert.equal(storageSettings({ DISK_RESERVE_BYTES: '0' }, '/d'), { kind: 'pglite', dataDir: '/d/data', diskReserveBytes: 0 });
});

const fails = (env: NodeJS.ProcessEnv, message: string) => {
  assert.throws(() => storageSettings(env, '/'), (error: unknown) => error instanceof ConfigError && error.message === message);
};

test('bad settings stop the server with a message that names them', () => {
  fails({ STORAGE: 'postgres' }, 'STORAGE=postgres needs DATABASE_URL, e.g. postgres://user@db.example.com:5432/site');
  fails({ STORAGE: 'mysql' }, 'STORAGE="mysql" is not one of memory, pglite, postgres');
  fails({ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must start with postgres:// or postgresql://');
  fails({ DISK_RESERVE_BYTES: '64MB' }, 'DISK_RESERVE_BYTES must be a whole number of bytes (0 turns the reserve off), not "64MB"');
  fails(
    { DATABASE_URL: URL_, DATABASE_SCHEMA: 'Site;drop' },
    'DATABASE_SCHEMA: schema name "Site;drop" must be lower-case letters, digits and underscores',
  );
});

test.run();
