/**
 * The rate limit through a PostgreSQL outage (a proxy in front of the real database, cut and restored;
 * an injected clock): while the database is down each instance counts on its own and still refuses the
 * 121st request of a window, and it goes back to the shared counters once the database answers again.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import type { SharedRateLimitStore } from '../../adapters/sql/shared-rate-limits.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import { startInProcessServer } from '../_in-process.ts';
import { manualClock, memoryLogger } from '../_setup.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { cuttableProxy } from '../_proxy.ts';

test('during an outage the limit holds per instance on its own count; afterwards the shared counters count again', async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  // What was opened, closed in reverse in finally whatever failed, before the schema is dropped.
  const opened: (() => Promise<unknown>)[] = [];
  try {
    const proxy = await cuttableProxy(pg.url);
    opened.push(() => proxy.close());
    const clock = manualClock();
    const logger = memoryLogger();
    const client = createPostgresClient({ url: proxy.url, schema });
    opened.push(() => client.close());
    await migrate(client);
    const storage = createSqlStorage(client, { clock, logger });
    opened.push(() => storage.close());
    const other = createSqlStorage(createPostgresClient({ url: pg.url, schema }));
    opened.push(() => other.close());
    const server = await startInProcessServer({ storage, clock, logger });
    opened.push(() => server.close());
    const pricing = (from: string) => server.request({ path: '/api/v1/pricing', from });

    for (let i = 0; i < 5; i++) await pricing('127.0.0.2');
    assert.is((await pricing('127.0.0.2')).headers['ratelimit-remaining'], '114');

    await proxy.cut('reset');
    for (let i = 1; i <= 120; i++) {
      const answer = await pricing('127.0.0.3');
      assert.is(answer.status, 200);
      assert.is(answer.headers['ratelimit-remaining'], String(120 - i));
    }
    const refused = await pricing('127.0.0.3');
    assert.is(refused.status, 429);
    assert.is(refused.headers['retry-after'], '60');
    assert.is((refused.json() as { code: string }).code, 'rate_limited');
    // A client this instance counted before the outage keeps its count here.
    assert.is((await pricing('127.0.0.2')).headers['ratelimit-remaining'], '113');
    assert.ok((storage.rateLimits as SharedRateLimitStore).local);

    await proxy.restore();
    // Until the next probe (one a second) the instance keeps counting on its own...
    assert.is((await pricing('127.0.0.2')).headers['ratelimit-remaining'], '112');
    // ...then the database answers, and what another instance counted meanwhile shows.
    for (let i = 0; i < 10; i++) await other.rateLimits.hit('127.0.0.2', 60_000, 120);
    clock.advance(1000);
    assert.is((await pricing('127.0.0.2')).headers['ratelimit-remaining'], '103');
    assert.not.ok((storage.rateLimits as SharedRateLimitStore).local);
    // A client that spent its quota here during the outage stays refused until its window ends...
    const stillRefused = await pricing('127.0.0.3');
    assert.is(stillRefused.status, 429);
    assert.is(stillRefused.headers['retry-after'], '59');
    // ...then the shared counters, which never saw those hits, count it afresh.
    clock.advance(59_000);
    assert.is((await pricing('127.0.0.3')).headers['ratelimit-remaining'], '119', 'shared again: the outage window is gone');

    assert.equal(
      logger.lines.map((line) => `${line.level} ${line.message}`),
      [
        'warn rate limit database unavailable; counting on this instance until it answers',
        'info rate limit database answers again; counting on the shared counters',
      ],
    );
  } finally {
    for (const close of opened.reverse()) await close().catch(() => {});
    await pg.dropSchema(schema);
    await closeTestDatabases();
  }
});

test.run();
