/**
 * A write answered 500 during a PostgreSQL outage is not done (docs/errors.md, "A 500 on a write"): the
 * database is cut (every connection reset, new ones too, through a proxy the test cuts) while
 * feedback and votes arrive one after another; each is answered 500, and once the database is back and
 * the driver has run everything it still held, none of them is stored.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import postgres from 'postgres';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import { startTestServer } from '../_setup.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { loadScaled } from '../_load.ts';
import { cuttableProxy } from '../_proxy.ts';

const JSON_HEADERS = { 'content-type': 'application/json' };

test('feedback and votes answered 500 while the database is cut are never stored afterwards', async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  // What was opened, closed in reverse in finally whatever failed, before the schema is dropped.
  const opened: (() => Promise<unknown>)[] = [];
  try {
    const proxy = await cuttableProxy(pg.url);
    opened.push(() => proxy.close());
    const client = createPostgresClient({ url: proxy.url, schema });
    opened.push(() => client.close());
    await migrate(client);
    const storage = createSqlStorage(client);
    opened.push(() => storage.close());
    const server = await startTestServer({ storage });
    opened.push(() => server.close());
    const direct = postgres(pg.url, { max: 1, onnotice: () => {}, connection: { search_path: `"${schema}"` } });
    opened.push(() => direct.end({ timeout: 5 }));
    const post = (path: string, body: unknown, from: string) =>
      server.request({ method: 'POST', path, headers: JSON_HEADERS, body: JSON.stringify(body), from });

    await proxy.cut('reset');
    const refused: string[] = [];
    // Six writers, one request after another each, as many as the driver's reconnection backoff needs
    // to grow past a request's deadline.
    const writer = async (w: number) => {
      for (let i = 0; i < 6; i++) {
        const description = `during the outage ${w}.${i}`;
        const answer = await post('/api/v1/feedback', { description }, `127.0.1.${w}`);
        assert.is(answer.status, 500, description);
        assert.is((answer.json() as { code: string }).code, 'internal_error');
        refused.push(description);
      }
    };
    // allSettled: a writer that fails must not leave the others sending while finally closes the server.
    const written = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(writer));
    for (const result of written) if (result.status === 'rejected') throw result.reason;
    const vote = await post('/api/v1/roadmap', { featureId: 1 }, '127.0.0.3');
    assert.is(vote.status, 500);
    await proxy.restore();

    // Until the driver has reconnected (its backoff grew during the outage, up to 20 s): a bound on a
    // busy machine, not 30 attempts, which fail fast or slowly depending on where the driver stands.
    const until = Date.now() + loadScaled(60_000);
    let back = await post('/api/v1/feedback', { description: 'after the outage' }, '127.0.0.2');
    while (back.status !== 201 && Date.now() < until) {
      back = await post('/api/v1/feedback', { description: 'after the outage' }, '127.0.0.2');
    }
    assert.is(back.status, 201, 'the server writes again once the database is back');
    // Closing waits for whatever the driver still holds (postgres.js ends gracefully).
    await server.close();
    await storage.close();

    const stored = (await direct.unsafe('select description from feedback order by id')).map((row) => row['description']);
    assert.equal(stored.filter((description) => refused.includes(description as string)), [], 'no refused feedback is stored');
    assert.ok(stored.includes('after the outage'));
    const votes = await direct.unsafe('select count(*)::int as n from roadmap_votes');
    assert.is(votes[0]!['n'], 0, 'the refused vote is not stored');
  } finally {
    for (const close of opened.reverse()) await close().catch(() => {});
    await pg.dropSchema(schema);
    await closeTestDatabases();
  }
});

test.run();
