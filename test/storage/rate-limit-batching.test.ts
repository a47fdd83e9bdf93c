/**
 * The Postgres rate-limit store batches concurrent hits into few statements (group commit) and still
 * gives every hit its exact count.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import type { SqlSession, SqlValue } from '../../adapters/sql/client.ts';
import { createSqlRateLimitStore } from '../../adapters/sql/rate-limits.ts';
import { closeTestDatabases, NO_RATE_LIMIT_DEADLINE, postgresClient, testPostgres } from '../_databases.ts';

test('600 concurrent hits on 30 keys take a handful of statements and count 1..20 per key', async () => {
  const client = await postgresClient();
  await migrate(client);
  try {
    const store = createSqlRateLimitStore(client, NO_RATE_LIMIT_DEADLINE);
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
    const store = createSqlRateLimitStore(client, { maxBatch: 7, ...NO_RATE_LIMIT_DEADLINE });
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
    // The first statement is held until a second one starts: only a store that runs two at once
    // releases it (a guard ends the wait otherwise, and the assertion below fails).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const guard = setTimeout(() => release(), 60_000);
    let calls = 0;
    let running = 0;
    let most = 0;
    const watched: SqlSession = {
      ...client,
      async query<Row extends object>(text: string, params?: readonly SqlValue[]) {
        const call = ++calls;
        most = Math.max(most, ++running);
        try {
          if (call === 1) await held;
          if (call === 2) release();
          return await client.query<Row>(text, params);
        } finally {
          running--;
        }
      },
    };
    const store = createSqlRateLimitStore(watched, { maxInFlight: 2, ...NO_RATE_LIMIT_DEADLINE });
    const keys = Array.from({ length: 600 }, (_, i) => `198.51.100.${i % 30}`);
    const hits = keys.slice(0, 300).map((key) => store.hit(key, 60_000));
    while (calls === 0) await new Promise((resolve) => setImmediate(resolve));
    hits.push(...keys.slice(300).map((key) => store.hit(key, 60_000)));
    const answered = await Promise.all(hits);
    clearTimeout(guard);
    assert.is(most, 2);
    const counts = new Map<string, number[]>();
    answered.forEach((hit, i) => counts.set(keys[i]!, [...(counts.get(keys[i]!) ?? []), hit.count]));
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
