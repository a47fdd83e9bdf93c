/**
 * No table holds a raw client address: after requests from distinct clients over a real socket, every
 * row of every table of the schema is searched for their addresses, on PGlite and Postgres. Rate-limit
 * keys are keyed hashes (migration 4 cleared the rows keyed by address).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { MIGRATIONS } from '../../adapters/sql/migrations.ts';
import type { SqlClient } from '../../adapters/sql/client.ts';
import type { SqlStorage } from '../../adapters/sql/storage.ts';
import { closeTestDatabases, pgliteClient, postgresClient, testPostgres } from '../_databases.ts';
import { startStorageServer } from '../_storage-server.ts';
import { pgliteTarget, postgresTarget } from './_targets.ts';

const CLIENTS = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];

/** Every row of every table of the client's schema, as text. */
async function everyRow(client: SqlClient): Promise<string[]> {
  const tables = await client.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = $1::text and table_type = 'BASE TABLE'`,
    [client.schema],
  );
  const rows: string[] = [];
  for (const { name } of tables) {
    for (const row of await client.query<{ text: string }>(`select t::text as text from "${name}" t`)) rows.push(`${name}: ${row.text}`);
  }
  return rows;
}

for (const target of [pgliteTarget, postgresTarget]) {
  const test = suite(`no address at rest on ${target.name}`);

  test(`${target.name}: after votes, feedback, checkouts and downloads from three clients, no row holds an address`, async () => {
    const server = await startStorageServer(target);
    try {
      const post = (path: string, body: unknown, from: string) =>
        server.request({ method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), from });
      for (const from of CLIENTS) {
        assert.is((await post('/api/v1/roadmap', { featureId: 1 }, from)).status, 200);
        assert.is((await post('/api/v1/feedback', { description: 'fine' }, from)).status, 201);
        assert.is((await post('/api/v1/checkout/create', {}, from)).status, 200);
        assert.is((await server.request({ path: '/api/v1/download?force=1', from })).status, 302);
      }
      const storage = server.opened.storage as unknown as SqlStorage;
      await storage.rateLimits.hit('2001:db8:0:1::/64', 60_000, 120);
      const rows = await everyRow(storage.client);
      for (const address of [...CLIENTS, '2001:db8']) {
        assert.equal(rows.filter((row) => row.includes(address)), [], `rows holding ${address}`);
      }
      const keys = await storage.client.query<{ key: string }>('select key from rate_limits');
      // PGlite's storage is its database's only client and keeps its counters in process memory; Postgres shares the table.
      assert.is(keys.length, target.name === 'postgres' ? CLIENTS.length + 1 : 0);
      for (const { key } of keys) assert.match(key, /^[A-Za-z0-9_-]{43}$/);
    } finally {
      await server.close();
    }
  });

  test(`${target.name}: migration 4 clears rate-limit rows keyed by address`, async () => {
    const client = target.name === 'pglite' ? await pgliteClient() : await postgresClient();
    try {
      await migrate(client, MIGRATIONS.filter((m) => m.version <= 3));
      await client.query(`insert into rate_limits (key, count, reset_at) values ('203.0.113.7', 5, now() + interval '1 minute')`);
      assert.equal((await migrate(client, MIGRATIONS.filter((m) => m.version <= 4))).applied, [4]);
      assert.equal(await client.query('select key from rate_limits'), []);
    } finally {
      if (target.name === 'pglite') await client.exec(`drop schema "${client.schema}" cascade`);
      else await (await testPostgres()).dropSchema(client.schema);
      await client.close();
    }
  });

  test.run();
}

const last = suite('no address at rest: clean-up');
last('closes the test databases', closeTestDatabases);
last.run();
