/**
 * Retention never blocks serving: on PGlite (statements on the main thread) a pass over a flood of ended
 * windows deletes in batches with an event-loop turn between them, so a request sent over a real socket
 * while it runs is answered before it ends; tables it deleted from are vacuumed (PGlite has no
 * autovacuum). PostgreSQL runs retention's statements on its own processes and vacuums by itself. Durations
 * are measured in bench/retention.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SqlClient } from '../../adapters/sql/client.ts';
import type { SqlStorage } from '../../adapters/sql/storage.ts';
import { closeTestDatabases } from '../_databases.ts';
import { startStorageServer } from '../_storage-server.ts';
import { pgliteTarget } from './_targets.ts';

/** Ended windows of `n` distinct clients and `n` unpaid sessions past their grace, written in one statement each. */
async function flood(client: SqlClient, n: number): Promise<void> {
  await client.query(
    `insert into rate_limits (key, count, reset_at) select md5(i::text), 1, now() - interval '1 second' from generate_series(1, $1::int) i`,
    [n],
  );
  await client.query(
    `insert into checkout_sessions (id, sku, channel, url, state, created_at, expires_at)
     select 'cs_' || i, 'standard', null, 'https://pay.example.com/x', 'pending', now() - interval '9 days', now() - interval '8 days'
     from generate_series(1, $1::int) i`,
    [n],
  );
}

async function vacuumCounts(client: SqlClient): Promise<Record<string, number>> {
  const rows = await client.query<{ name: string; count: number }>(
    `select relname as name, vacuum_count::int as count from pg_stat_user_tables
     where schemaname = $1::text and relname in ('rate_limits', 'checkout_sessions', 'roadmap_votes') order by relname`,
    [client.schema],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.count]));
}

const test = suite('retention never blocks serving');

test('pglite: a request sent while a pass deletes 10,000 windows and sessions is answered before the pass ends', async () => {
  const server = await startStorageServer(pgliteTarget);
  try {
    const storage = server.opened.storage as unknown as SqlStorage;
    await flood(storage.client, 10_000);
    let passEnded = false;
    const pass = storage.runRetention().then((report) => ((passEnded = true), report));
    const answer = await server.request({ path: '/api/v1/version' });
    assert.is(answer.status, 200);
    assert.not.ok(passEnded, 'the answer came while the pass was still deleting');
    assert.equal(await pass, {
      rateLimitWindows: 10_000,
      checkoutSessions: 10_000,
      budgetCounters: 0,
      outboundEvents: 0,
      installSightings: 0,
      installPings: 0,
    });
  } finally {
    await server.close();
  }
});

test('pglite: the tables a pass deleted from are vacuumed, and untouched ones are not', async () => {
  const server = await startStorageServer(pgliteTarget);
  try {
    const { client, runRetention } = server.opened.storage as unknown as SqlStorage;
    await flood(client, 10);
    await runRetention();
    assert.equal(await vacuumCounts(client), { checkout_sessions: 1, rate_limits: 1, roadmap_votes: 0 });
    await runRetention();
    assert.equal(await vacuumCounts(client), { checkout_sessions: 1, rate_limits: 1, roadmap_votes: 0 });
  } finally {
    await server.close();
  }
});

test("pglite: a table past autovacuum's threshold of dead rows is vacuumed too (votes taken back)", async () => {
  const server = await startStorageServer(pgliteTarget);
  try {
    const { client, runRetention } = server.opened.storage as unknown as SqlStorage;
    await client.query(`insert into roadmap_votes (feature_id, voter_id) select 1, md5(i::text) from generate_series(1, 300) i`);
    await client.query(`delete from roadmap_votes where voter_id < '8'`);
    // No flush of PGlite's counters here: the pass asks for it (without it they read 0, and nothing passed).
    await runRetention();
    assert.equal(await vacuumCounts(client), { checkout_sessions: 0, rate_limits: 0, roadmap_votes: 1 });
  } finally {
    await server.close();
  }
});

async function analyzeCounts(client: SqlClient, tables: readonly string[]): Promise<Record<string, number>> {
  await client.query('select pg_stat_force_next_flush()');
  const rows = await client.query<{ name: string; count: number }>(
    `select relname as name, analyze_count::int as count from pg_stat_user_tables
     where schemaname = $1::text and relname = any($2::text[]) order by relname`,
    [client.schema, `{${tables.join(',')}}`],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.count]));
}

test("pglite: a table past autoanalyze's threshold of changed rows is analyzed, so an inbox page reads its 500 rows, not the whole table", async () => {
  const server = await startStorageServer(pgliteTarget);
  try {
    const { client, runRetention } = server.opened.storage as unknown as SqlStorage;
    await client.query(`insert into feedback (type, description, received_at) select 'general', 'a review', now() from generate_series(1, 5000) i`);
    // The inbox page's own statement (adapters/sql/inbox.ts), unhandled entries below an id: the Inbox's default.
    const plan = async () =>
      (await client.query<{ 'QUERY PLAN': string }>(
        `explain (analyze, costs off, timing off, summary off) select id from feedback
         where ($1::boolean is null or (handled_at is not null) = $1::boolean) and feedback.id < coalesce($2::bigint, 9223372036854775807)
         order by feedback.id desc limit 500`,
        [false, 4001],
      )).map((row) => row['QUERY PLAN']).join('\n');
    assert.match(await plan(), /Sort/, 'before: the planner guessed, and sorted every row below the bound');
    await runRetention();
    assert.equal(await analyzeCounts(client, ['feedback', 'roadmap_votes']), { feedback: 1, roadmap_votes: 0 });
    assert.match(await plan(), /Index Scan Backward using feedback_pkey on feedback \(actual rows=500\.00 loops=1\)/);
    assert.not.match(await plan(), /Sort/);
    await runRetention();
    assert.equal(await analyzeCounts(client, ['feedback']), { feedback: 1 }, 'unchanged since: not analyzed again');
  } finally {
    await server.close();
  }
});

test.after(closeTestDatabases);
test.run();
