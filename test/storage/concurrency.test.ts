/**
 * Concurrency on Postgres (DATABASE_URL, else the PGlite stand-in): the races the issue names, each run
 * through separate pooled connections so the database, not the process, has to settle them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SqlClient } from '../../adapters/sql/client.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { MIGRATIONS } from '../../adapters/sql/migrations.ts';
import { clientKeyHash, createSharedRateLimitState } from '../../adapters/sql/shared-rate-limits.ts';
import { createSqlStorage, type SqlStorage } from '../../adapters/sql/storage.ts';
import { dayOf } from '../../core/budgets/budgets.ts';
import type { FeedbackEntry, RoadmapFeature, RoadmapFeatureView } from '../../core/ports/ports.ts';
import { closeTestDatabases, NO_RATE_LIMIT_DEADLINE, postgresClient, testPostgres } from '../_databases.ts';

interface Context {
  client: SqlClient | null;
  storage: SqlStorage | null;
}

const test = suite<Context>('storage concurrency on postgres', { client: null, storage: null });

const FEATURE: RoadmapFeature = { id: 7, title: 'T', description: 'D', category: 'c', visible: true, release_version: null };

test.before.each(async (context) => {
  context.client = await postgresClient();
  await migrate(context.client);
  context.storage = createSqlStorage(context.client, { rateLimit: NO_RATE_LIMIT_DEADLINE });
  await context.storage.roadmap.syncRoadmap([FEATURE]);
});

test.after.each(async (context) => {
  await context.storage?.close();
  if (context.client) await (await testPostgres()).dropSchema(context.client.schema);
});

const storageOf = (context: Context) => context.storage!;

async function storedVotes(context: Context): Promise<number> {
  const rows = await context.client!.query<{ n: number }>('select count(*)::int as n from roadmap_votes where feature_id = 7');
  return rows[0]!.n;
}

for (const n of [40, 41]) {
  test(`${n} concurrent toggles by one voter run one after another and end ${n % 2 ? 'voted' : 'not voted'}`, async (context) => {
    const storage = storageOf(context);
    const results = await Promise.all(Array.from({ length: n }, () => storage.roadmap.toggleVote(7, 'one-voter')));
    for (const result of results) assert.equal(result, { voted: result!.voted, vote_count: result!.voted ? 1 : 0 });
    assert.is(results.filter((r) => r!.voted).length, Math.ceil(n / 2));
    const [view] = await storage.roadmap.listRoadmap('one-voter');
    assert.equal([view!.voted, view!.vote_count], n % 2 ? [true, 1] : [false, 0]);
    assert.is(await storedVotes(context), view!.vote_count);
  });
}

test('60 distinct voters at once are each counted once', async (context) => {
  const storage = storageOf(context);
  const results = await Promise.all(Array.from({ length: 60 }, (_, i) => storage.roadmap.toggleVote(7, `voter-${i}`)));
  assert.ok(results.every((r) => r?.voted === true));
  assert.equal(results.map((r) => r!.vote_count).sort((a, b) => a - b), Array.from({ length: 60 }, (_, i) => i + 1));
  assert.is((await storage.roadmap.listRoadmap('nobody'))[0]!.vote_count, 60);
  assert.is(await storedVotes(context), 60);
});

test('one batch with a voter twice, a second feature, a hidden and a missing one answers each in order', async (context) => {
  const storage = storageOf(context);
  await storage.roadmap.syncRoadmap([FEATURE, { ...FEATURE, id: 8 }, { ...FEATURE, id: 9, visible: false }]);
  await storage.roadmap.toggleVote(7, 'b');
  // Queued in one turn of the event loop, they go together in one statement.
  const results = await Promise.all([
    storage.roadmap.toggleVote(7, 'warm-up'),
    storage.roadmap.toggleVote(7, 'a'),
    storage.roadmap.toggleVote(8, 'a'),
    storage.roadmap.toggleVote(7, 'b'),
    storage.roadmap.toggleVote(9, 'a'),
    storage.roadmap.toggleVote(7, 'a'),
    storage.roadmap.toggleVote(12345, 'a'),
    storage.roadmap.toggleVote(7, 'a'),
    storage.roadmap.toggleVote(7, 'b'),
  ]);
  assert.equal(results, [
    { voted: true, vote_count: 2 },
    { voted: true, vote_count: 3 },
    { voted: true, vote_count: 1 },
    { voted: false, vote_count: 2 },
    null,
    { voted: false, vote_count: 1 },
    null,
    { voted: true, vote_count: 2 },
    { voted: true, vote_count: 3 },
  ]);
  const views = await storage.roadmap.listRoadmap('a');
  assert.equal(views.map((v) => [v.id, v.voted, v.vote_count]), [[7, true, 3], [8, true, 1]]);
  assert.equal((await storage.roadmap.listRoadmap('b')).map((v) => v.voted), [true, false]);
  assert.is(await storedVotes(context), 3);
});

test('readers batched into one statement each see their own votes, and a vote committed before them', async (context) => {
  const storage = storageOf(context);
  await storage.roadmap.syncRoadmap([FEATURE, { ...FEATURE, id: 8 }]);
  await storage.roadmap.toggleVote(8, 'b');
  // Queued in one turn of the event loop, they are answered by one statement.
  const [first, a, b, none, bAgain] = await Promise.all(['a', 'a', 'b', 'nobody', 'b'].map((voter) => storage.roadmap.listRoadmap(voter)));
  const seen = (views: RoadmapFeatureView[] | undefined) => views!.map((v) => [v.id, v.voted, v.vote_count]);
  assert.equal(seen(first), [[7, false, 0], [8, false, 1]]);
  assert.equal(seen(a), [[7, false, 0], [8, false, 1]]);
  assert.equal(seen(b), [[7, false, 0], [8, true, 1]]);
  assert.equal(seen(none), [[7, false, 0], [8, false, 1]]);
  assert.equal(seen(bAgain), seen(b));
});

test('a merge among 120 concurrent toggles of both features leaves every count equal to its stored votes', async (context) => {
  const storage = storageOf(context);
  await storage.roadmap.syncRoadmap([FEATURE, { ...FEATURE, id: 8 }]);
  for (let i = 0; i < 20; i++) await storage.roadmap.toggleVote(i % 2 ? 7 : 8, `early-${i}`);
  const toggles = Array.from({ length: 120 }, (_, i) => storage.roadmap.toggleVote(i % 3 ? 8 : 7, `voter-${i % 40}`));
  const merge = storage.change((tx) => tx.features.merge(8, 7));
  const more = Array.from({ length: 60 }, (_, i) => storage.roadmap.toggleVote(i % 2 ? 8 : 7, `late-${i % 20}`));
  const [outcome] = await Promise.all([merge, ...toggles, ...more]);
  assert.is(outcome.kind, 'merged');
  const counts = await context.client!.query<{ id: number; vote_count: number; stored: number }>(
    `select f.id, f.vote_count, (select count(*)::int from roadmap_votes v where v.feature_id = f.id) as stored
     from roadmap_features f order by f.id`,
  );
  assert.equal(counts.map((row) => [row.id, row.vote_count === row.stored]), [[7, true], [8, true]]);
  assert.equal(counts[1]!.stored, 0, 'the merged feature keeps no votes');
  assert.is((await storage.roadmap.listRoadmap('nobody'))[0]!.vote_count, counts[0]!.stored);
});

test('30 racing saves of one session store one set of keys, every save answers it, one says it stored them', async (context) => {
  const storage = storageOf(context);
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) => storage.checkouts.saveLicenses('cs_race', { standard: `key/s${i}`, plus: `key/p${i}` })),
  );
  const stored = await storage.checkouts.getLicenses('cs_race');
  assert.ok(stored && /^key\/s\d+$/.test(stored.standard ?? ''));
  assert.is(stored!.plus, stored!.standard!.replace('/s', '/p'));
  for (const answer of answers) assert.equal(answer.keys, stored);
  assert.is(answers.filter((answer) => answer.stored).length, 1, 'one save stored them');
});

test('200 concurrent feedback writes are all kept', async (context) => {
  const storage = storageOf(context);
  const entry = (i: number): FeedbackEntry => ({
    type: 'general',
    description: `note ${i}`,
    email: null,
    appVersion: null,
    rating: (i % 5) + 1,
    receivedAt: 1_800_000_000_000 + i,
  });
  await Promise.all(Array.from({ length: 200 }, (_, i) => storage.intake.addFeedback(entry(i))));
  const read: FeedbackEntry[] = [];
  for await (const { id: _id, handledAt: _handledAt, ...e } of storage.feedbackEntries()) read.push(e);
  assert.equal(read.sort((a, b) => a.receivedAt - b.receivedAt), Array.from({ length: 200 }, (_, i) => entry(i)));
});

test('two stores on one database (two instances) share one counter exactly', async (context) => {
  const other = createSqlStorage(await postgresClient({ schema: context.client!.schema }), { rateLimit: NO_RATE_LIMIT_DEADLINE });
  try {
    const hits = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 ? other : storageOf(context)).rateLimits.hit('198.51.100.9', 60_000, 120)),
    );
    assert.equal(hits.map((h) => h.count).sort((a, b) => a - b), Array.from({ length: 150 }, (_, i) => i + 1));
  } finally {
    await other.close();
  }
});

test("two instances never pass a feedback budget together, from the day's first batch on", async (context) => {
  const other = createSqlStorage(await postgresClient({ schema: context.client!.schema }), { rateLimit: NO_RATE_LIMIT_DEADLINE });
  const at = Date.UTC(2026, 10, 25, 12);
  const submission = (i: number): FeedbackEntry => ({
    type: 'general',
    description: `entry ${String(i).padStart(4, '0')}`,
    email: null,
    appVersion: null,
    rating: null,
    receivedAt: at,
  });
  // 266 bytes an entry: client "a" may add 10 a day, all clients together 25.
  const budget = (client: string) => ({ client, day: dayOf(at), bytes: 266, perClient: 2_660, total: 6_650, sharePercent: 100 });
  try {
    // Twenty waves, each a batch on both instances at once: client "a" and one other client each.
    const admitted = { a: 0, all: 0 };
    for (let wave = 0; wave < 20; wave++) {
      const sent = [storageOf(context), other].flatMap((storage, side) =>
        ['a', `client-${wave}-${side}`].map(async (client, k) =>
          [client, await storage.intake.addFeedback(submission(wave * 4 + side * 2 + k), budget(client))] as const
        )
      );
      for (const [client, refusal] of await Promise.all(sent)) {
        if (refusal === null && client === 'a') admitted.a++;
        if (refusal === null) admitted.all++;
      }
    }
    assert.equal(admitted, { a: 10, all: 25 });
    // Stored under the keyed hash the rate limits use, never the key.
    const a = await clientKeyHash(context.client!, createSharedRateLimitState())('a');
    const rows = await context.client!.query<{ client: string; amount: number }>(
      `select client, amount::int as amount from budget_spent where client in ('', $1::text) order by client`,
      [a],
    );
    assert.equal(rows, [{ client: '', amount: 6_650 }, { client: a, amount: 2_660 }]);
    assert.is((await context.client!.query('select id from feedback')).length, 25);
  } finally {
    await other.close();
  }
});

test('a client first seen by two instances at once is counted once: the counts are read after the lock', async (context) => {
  // Real PostgreSQL only: the stand-in serves one connection, so a third one cannot hold the lock.
  if ((await testPostgres()).kind !== 'postgres') return;
  const other = createSqlStorage(await postgresClient({ schema: context.client!.schema }), { rateLimit: NO_RATE_LIMIT_DEADLINE });
  const at = Date.UTC(2026, 10, 25, 12);
  const day = dayOf(at);
  const submission = (i: number): FeedbackEntry => ({
    type: 'general',
    description: `entry ${i}`,
    email: null,
    appVersion: null,
    rating: null,
    receivedAt: at,
  });
  // 263 bytes an entry: client "b" may add 5 a day; the total is no limit here.
  const budget = { client: 'b', day, bytes: 263, perClient: 1_315, total: 1_000_000, sharePercent: 100 };
  /** Sessions waiting behind `holder`, directly or behind one that waits for it. */
  const waitingBehind = async (holder: number) =>
    (
      await context.client!.query<{ n: number }>(
        `with w as (select pid, pg_blocking_pids(pid) as b from pg_stat_activity where datname = current_database())
         select count(*)::int as n from w where b && (array[$1::int] || array(select pid from w where $1::int = any(b)))`,
        [holder],
      )
    )[0]!.n;
  try {
    await context.client!.query(`insert into budget_spent (kind, day, client, amount) values ('feedback', $1::int, '', 0)`, [day]);
    let sent: unknown[] = [];
    // A third connection holds the day's total until both instances' batches wait behind it, so both
    // start their statements before either commits the new client's row.
    await context.client!.transaction(async (tx) => {
      await tx.query(`select 1 from budget_spent where kind = 'feedback' and day = $1::int and client = '' for update`, [day]);
      const [{ pid }] = (await tx.query<{ pid: number }>('select pg_backend_pid() as pid')) as [{ pid: number }];
      sent = [storageOf(context), other].flatMap((storage, side) =>
        Array.from({ length: 5 }, (_, k) => storage.intake.addFeedback(submission(side * 5 + k), budget))
      );
      while ((await waitingBehind(pid)) < 2) await new Promise((resolve) => setImmediate(resolve));
    });
    const answers = await Promise.all(sent);
    assert.is(answers.filter((a) => a === null).length, 5);
    const b = await clientKeyHash(context.client!, createSharedRateLimitState())('b');
    assert.equal(await context.client!.query(`select client, amount::int as amount from budget_spent order by client`), [
      { client: '', amount: 1_315 },
      { client: b, amount: 1_315 },
    ]);
    assert.is((await context.client!.query('select id from feedback')).length, 5);
  } finally {
    await other.close();
  }
});

test('migrations started by four instances at once apply once', async (context) => {
  const schema = (await testPostgres()).kind === 'postgres' ? `${context.client!.schema}_m` : context.client!.schema;
  const clients = await Promise.all(Array.from({ length: 4 }, () => postgresClient({ schema })));
  try {
    const reports = await Promise.all(clients.map((client) => migrate(client)));
    const applied = reports.flatMap((r) => r.applied);
    const versions = MIGRATIONS.map((m) => m.version);
    assert.equal(applied, schema === context.client!.schema ? [] : versions);
    assert.ok(reports.every((r) => r.version === versions[versions.length - 1]));
  } finally {
    for (const client of clients) await client.close();
    if (schema !== context.client!.schema) await (await testPostgres()).dropSchema(schema);
  }
});

test.after(closeTestDatabases);
test.run();
