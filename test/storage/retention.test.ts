/**
 * Retention on Postgres (DATABASE_URL, else the stand-in): ended rate-limit windows and checkout sessions
 * that never paid are deleted; everything else stays.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import type { CheckoutState } from '../../core/ports.ts';
import { closeTestDatabases, postgresClient, testPostgres } from '../_databases.ts';

const DAY = 24 * 60 * 60 * 1000;

test('a pass deletes ended windows and unpaid sessions past the 7-day grace, and keeps the rest', async () => {
  const client = await postgresClient();
  await migrate(client);
  const storage = createSqlStorage(client);
  try {
    // Keys are stored hashed: two windows are aged first, then a third one opens.
    for (const key of ['old-1', 'old-2']) await storage.rateLimits.hit(key, 60_000, 120);
    await client.query(`update rate_limits set reset_at = now() - interval '1 second'`);
    await storage.rateLimits.hit('live', 60_000, 120);
    const live = await client.query<{ key: string }>('select key from rate_limits where reset_at > now()');

    const now = Date.now();
    const sessions: [string, CheckoutState, number][] = [
      ['pending-8d', 'pending', now - 8 * DAY],
      ['expired-8d', 'expired', now - 8 * DAY],
      ['failed-8d', 'failed', now - 8 * DAY],
      ['pending-6d', 'pending', now - 6 * DAY],
      ['processing-30d', 'processing', now - 30 * DAY],
      ['paid-30d', 'paid', now - 30 * DAY],
      ['pending-open', 'pending', now + DAY],
    ];
    for (const [id, state, expiresAt] of sessions) {
      await storage.createCheckout({ id, sku: 'standard', channel: null, url: 'https://pay.example.com/x', state, createdAt: expiresAt - DAY, expiresAt });
    }

    assert.equal(await storage.runRetention(), { rateLimitWindows: 2, checkoutSessions: 3, budgetCounters: 0 });
    const keys = await client.query<{ key: string }>('select key from rate_limits order by key');
    assert.equal(keys.map((r) => r.key), live.map((r) => r.key));
    const left = await client.query<{ id: string }>('select id from checkout_sessions order by id');
    assert.equal(left.map((r) => r.id), ['paid-30d', 'pending-6d', 'pending-open', 'processing-30d']);
    assert.equal(await storage.runRetention(), { rateLimitWindows: 0, checkoutSessions: 0, budgetCounters: 0 });
    assert.is((await storage.rateLimits.hit('old-1', 60_000, 120)).count, 1);
  } finally {
    await storage.close();
    await (await testPostgres()).dropSchema(client.schema);
  }
});

test.after(closeTestDatabases);
test.run();
