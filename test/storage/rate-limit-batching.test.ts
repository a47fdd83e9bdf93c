/**
 * The Postgres rate-limit store batches concurrent hits into few statements (group commit) and still
 * gives every hit its exact count.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import type { SqlSession, SqlValue } from '../../adapters/sql/client.ts';
import { createSqlRateLimitStore } from '../../adapters/sql/rate-limits.ts';
import { closeTestDatabases, postgresClient, testPostgres } from '../_databases.ts';

test('600 concurrent hits on 30 keys take a handful of statements and count 1..20 per key', async () => {
  const client = await postgresClient();
  await migrate(client);
  try {
    const store = createSqlRateLimitStore(client);
    const keys = Array.from({ length: 600 }, (_, i) => `2001:db8::${i % 30}`);
    const hits = await Promise.all(keys.map((key) => store.hit(key, 60_000)));
    assert.ok(store.statements <= 5, `${store.statements} statements`);
    const counts = new Map<string, number[]>();
    keys.forEach((key, i) => counts.set(key, [...(counts.get(key) ?? []), hits[i]!.count]));
    for (const list of counts.values()) assert.equal(list, Array.from({ length: 20 }, (_, i) => i + 1));
    const stored = await client.query<{ n: number }>('select sum(count)::int as n from rate_limits');
    assert.is(stored[0]!.n, 600);
  } finally {
    await client.close();
    await (await testPostgres()).dropSchema(client.schema);
  }
});

test('a batch larger than maxBatch is split, in order', async () => {
  const client = await postgresClient();
  await migrate(client);
  try {
    const store = createSqlRateLimitStore(client, { maxBatch: 7 });
    const hits = await Promise.all(Array.from({ length: 20 }, () => store.hit('same', 60_000)));
    assert.equal(hits.map((h) => h.count), Array.from({ length: 20 }, (_, i) => i + 1));
    assert.is(store.statements, 3);
  } finally {
    await client.close();
    await (await testPostgres()).dropSchema(client.schema);
  }
});

test('with maxInFlight 2 a second statement runs beside the first, and every count is still exact', async () => {
  const client = await postgresClient();
  await migrate(client);
  try {
    let running = 0;
    let most = 0;
    const watched: SqlSession = {
      ...client,
      async query<Row extends object>(text: string, params?: readonly SqlValue[]) {
        most = Math.max(most, ++running);
        try {
          return await client.query<Row>(text, params);
        } finally {
          running--;
        }
      },
    };
    const store = createSqlRateLimitStore(watched, { maxInFlight: 2 });
    // The first hits start a statement; the rest arrive while it runs, in later I/O turns.
    const keys = Array.from({ length: 600 }, (_, i) => `198.51.100.${i % 30}`);
    const hits: Promise<{ count: number }>[] = [];
    for (let i = 0; i < keys.length; i++) {
      hits.push(store.hit(keys[i]!, 60_000));
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    const counts = new Map<string, number[]>();
    (await Promise.all(hits)).forEach((hit, i) => counts.set(keys[i]!, [...(counts.get(keys[i]!) ?? []), hit.count]));
    assert.is(most, 2);
    for (const list of counts.values()) assert.equal([...list].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i + 1));
    const stored = await client.query<{ n: number }>('select sum(count)::int as n from rate_limits');
    assert.is(stored[0]!.n, 600);
  } finally {
    await client.close();
    await (await testPostgres()).dropSchema(client.schema);
  }
});

test.after(closeTestDatabases);
test.run();
