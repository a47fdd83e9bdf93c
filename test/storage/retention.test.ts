/**
 * Retention on Postgres (DATABASE_URL, else the stand-in): ended rate-limit windows and checkout sessions
 * that never paid are deleted; everything else stays.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import type { CheckoutState } from '../../core/ports/ports.ts';
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
      await storage.checkouts.createCheckout({
        id,
        sku: 'standard',
        channel: null,
        url: 'https://pay.example.com/x',
        state,
        createdAt: expiresAt - DAY,
        expiresAt,
      });
    }

    assert.equal(await storage.runRetention(), {
      rateLimitWindows: 2,
      checkoutSessions: 3,
      budgetCounters: 0,
      outboundEvents: 0,
      installSightings: 0,
      installPings: 0,
    });
    const keys = await client.query<{ key: string }>('select key from rate_limits order by key');
    assert.equal(keys.map((r) => r.key), live.map((r) => r.key));
    const left = await client.query<{ id: string }>('select id from checkout_sessions order by id');
    assert.equal(left.map((r) => r.id), ['paid-30d', 'pending-6d', 'pending-open', 'processing-30d']);
    assert.equal(await storage.runRetention(), {
      rateLimitWindows: 0,
      checkoutSessions: 0,
      budgetCounters: 0,
      outboundEvents: 0,
      installSightings: 0,
      installPings: 0,
    });
    assert.is((await storage.rateLimits.hit('old-1', 60_000, 120)).count, 1);
  } finally {
    await storage.close();
    await (await testPostgres()).dropSchema(client.schema);
  }
});

test('outbound events done (delivered or given up) past their retention go with their deliveries; pending ones stay', async () => {
  const client = await postgresClient();
  await migrate(client);
  const quiet = { info() {}, warn() {}, error() {} };
  const storage = createSqlStorage(client);
  const longer = createSqlStorage(client, { retention: { logger: quiet, intervalMs: 3_600_000, eventRetentionDays: 60 } });
  try {
    await storage.change((tx) =>
      tx.outbox.addEndpoint({
        url: 'http://127.0.0.1:9/a',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        events: [],
        format: 'standard',
        createdAt: Date.now(),
      })
    );
    const entry = { type: 'general' as const, email: null, appVersion: null, rating: null, receivedAt: Date.now() };
    for (const description of ['delivered-old', 'failed-old', 'pending-old', 'delivered-young']) await storage.intake.addFeedback({ ...entry, description });
    const states: [string, string, number][] = [['delivered-old', 'delivered', 31], ['failed-old', 'failed', 31], ['pending-old', 'pending', 31], [
      'delivered-young',
      'delivered',
      29,
    ]];
    for (const [description, state, days] of states) {
      await client.query(
        `update webhook_deliveries d set state = $2::text from outbound_events e where e.id = d.event_id and e.body like '%' || $1::text || '%'`,
        [description, state],
      );
      await client.query(`update outbound_events set created_at = now() - make_interval(days => $2::int) where body like '%' || $1::text || '%'`, [
        description,
        days,
      ]);
    }
    assert.equal((await longer.runRetention()).outboundEvents, 0, 'EVENT_RETENTION_DAYS=60 keeps them all');
    assert.equal(await storage.runRetention(), {
      rateLimitWindows: 0,
      checkoutSessions: 0,
      budgetCounters: 0,
      outboundEvents: 2,
      installSightings: 0,
      installPings: 0,
    });
    const left = await client.query<{ description: string; deliveries: number }>(
      `select (e.body::jsonb #>> '{data,description}') as description, (select count(*)::int from webhook_deliveries d where d.event_id = e.id) as deliveries
       from outbound_events e order by e.id`,
    );
    assert.equal(left, [{ description: 'pending-old', deliveries: 1 }, { description: 'delivered-young', deliveries: 1 }]);
    assert.equal(await client.query('select count(*)::int as n from webhook_deliveries'), [{ n: 2 }]);
  } finally {
    await longer.close();
    await storage.close();
    await (await testPostgres()).dropSchema(client.schema);
  }
});

test("install sightings of days before yesterday go (the install counts stay); today's and yesterday's stay", async () => {
  const client = await postgresClient();
  await migrate(client);
  const storage = createSqlStorage(client);
  try {
    const today = Math.floor(Date.now() / DAY);
    const seen = (day: number, clientHash: string) => ({ day, release: '2.6.0', clientHash, platform: 'windows' as const });
    await storage.usage.addSightings([seen(today - 3, 'a'), seen(today - 2, 'a'), seen(today - 2, 'b'), seen(today - 1, 'a'), seen(today, 'a')]);
    assert.equal(await storage.runRetention(), {
      rateLimitWindows: 0,
      checkoutSessions: 0,
      budgetCounters: 0,
      outboundEvents: 0,
      installSightings: 3,
      installPings: 0,
    });
    assert.equal(await client.query('select day from install_sightings order by day'), [{ day: today - 1 }, { day: today }]);
    const installs = (await storage.usage.list(today - 3, today)).map((c) => c.count);
    assert.equal(installs, [1, 2, 1, 1]);
  } finally {
    await storage.close();
    await (await testPostgres()).dropSchema(client.schema);
  }
});

test("install pings and their per-client tallies of days before yesterday go (the install counts stay); today's and yesterday's stay", async () => {
  const client = await postgresClient();
  await migrate(client);
  const storage = createSqlStorage(client);
  try {
    const today = Math.floor(Date.now() / DAY);
    const ping = (day: number, installHash: string) => ({ day, channel: 'stable', release: '2.6.0', installHash, clientHash: 'c' });
    for (const [day, id] of [[today - 3, 'a'], [today - 2, 'a'], [today - 2, 'b'], [today - 1, 'a'], [today, 'a']] as const) {
      assert.ok(await storage.installs.addInstall(ping(day, id), 10));
    }
    // Pings of today - 3 and today - 2 (3 rows) and the tallies of client c on those days (2 rows).
    assert.equal(await storage.runRetention(), {
      rateLimitWindows: 0,
      checkoutSessions: 0,
      budgetCounters: 0,
      outboundEvents: 0,
      installSightings: 0,
      installPings: 5,
    });
    assert.equal(await client.query('select day from install_pings order by day'), [{ day: today - 1 }, { day: today }]);
    assert.equal(await client.query('select day, installs from install_clients order by day'), [{ day: today - 1, installs: 1 }, { day: today, installs: 1 }]);
    assert.equal((await storage.installs.list(today - 3, today)).map((c) => c.count), [1, 2, 1, 1]);
  } finally {
    await storage.close();
    await (await testPostgres()).dropSchema(client.schema);
  }
});

test.after(closeTestDatabases);
test.run();
