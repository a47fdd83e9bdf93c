/**
 * The SQL clients' `readThenWrite` (postgres.js: two pipelined round trips; PGlite: one statement after
 * another) and postgres.js's prepared statements, against PostgreSQL (DATABASE_URL, else the PGlite
 * stand-in) and an in-process PGlite.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { SqlClient } from '../../adapters/sql/client.ts';
import { closeTestDatabases, pgliteSchema, postgresSchema, type SchemaClient } from '../_databases.ts';

/** A client of one driver on a fresh schema. */
type Open = (options: { preparedStatements?: boolean | undefined }) => Promise<SchemaClient>;

/** postgres.js, one connection, so that every statement runs on the connection a test then inspects. */
const overTheWire: Open = (options) =>
  postgresSchema({ maxConnections: 1, ...(options.preparedStatements === undefined ? {} : { preparedStatements: options.preparedStatements }) });

/** PGlite in this process: its `readThenWrite` runs the statements one after another (readThenWriteIn). */
const inProcess: Open = () => pgliteSchema();

async function withClient(open: Open, options: { preparedStatements?: boolean | undefined }, work: (client: SqlClient) => Promise<void>): Promise<void> {
  const { client, drop } = await open(options);
  try {
    await client.exec(`create schema if not exists "${client.schema}"; create table t (id int primary key, note text not null)`);
    await work(client);
  } finally {
    await drop();
  }
}

// Each case its own text: the stand-in serves every connection from one session.
const lookup = (label: string) => `select id, '${label}' as label from t where id = $1::int`;
const prepared = (label: string) => `select count(*)::int as n from pg_prepared_statements where statement = '${lookup(label).replaceAll("'", "''")}'`;

test('statements are prepared on their connection by default, and not with preparedStatements: false', async () => {
  for (const [preparedStatements, expected] of [[undefined, 1], [false, 0]] as const) {
    await withClient(overTheWire, { preparedStatements }, async (client) => {
      const label = String(preparedStatements);
      await client.query(lookup(label), [1]);
      await client.query(lookup(label), [2]);
      assert.equal(await client.query(prepared(label)), [{ n: expected }], `preparedStatements: ${label}`);
    });
  }
});

for (const [name, open] of [['postgres.js', overTheWire], ['PGlite', inProcess]] as const) {
  test(`${name}: readThenWrite hands the reads to decide and commits the write it decided`, async () => {
    await withClient(open, {}, async (client) => {
      await client.query(`insert into t values (1, 'one')`);
      const result = await client.readThenWrite(
        [{ text: 'select id, note from t where id = $1::int', params: [1] }, { text: 'select count(*)::int as n from t' }],
        ([one, count]) => ({ result: [one, count], write: { text: 'insert into t values ($1::int, $2::text)', params: [2, 'two'] } }),
      );
      assert.equal(result, [[{ id: 1, note: 'one' }], [{ n: 1 }]]);
      assert.equal(await client.query('select id, note from t order by id'), [{ id: 1, note: 'one' }, { id: 2, note: 'two' }]);
    });
  });

  test(`${name}: readThenWrite with nothing to write, or a write that fails, changes nothing and leaves the connection usable`, async () => {
    await withClient(open, {}, async (client) => {
      await client.query(`insert into t values (1, 'one')`);
      assert.is(await client.readThenWrite([{ text: `update t set note = 'read' where id = 1 returning id` }], () => ({ result: 'none' })), 'none');
      const duplicate = { text: `insert into t values (1, 'again')` };
      const failed = await client.readThenWrite(
        [{ text: `update t set note = 'changed' where id = 1 returning id` }],
        () => ({ result: 'written', write: duplicate }),
      ).then(
        () => 'resolved',
        (error: { code?: string }) => error.code,
      );
      assert.is(failed, '23505');
      const badRead = await client.readThenWrite([{ text: 'select nope from t' }], () => ({ result: 'decided' })).then(
        () => 'resolved',
        (error: { code?: string }) => error.code,
      );
      assert.is(badRead, '42703');
      assert.equal(await client.query('select id, note from t order by id'), [{ id: 1, note: 'one' }]);
    });
  });
}

test.after(closeTestDatabases);

test.run();
