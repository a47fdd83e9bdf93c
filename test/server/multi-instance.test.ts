/**
 * Two server processes on one Postgres (DATABASE_URL, else the stand-in): the rate limit, votes and
 * secrets are shared exactly.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type HttpResult, sendHttp } from '../_setup.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { type ServerProcess, startServerProcess } from '../_spawn.ts';

let servers: ServerProcess[] = [];
let schema = '';

test.before(async () => {
  const pg = await testPostgres();
  schema = await pg.freshSchema();
  // The shared counters get no deadline: on a loaded machine a batch can take longer than the 300 ms
  // after which an instance counts on its own (an outage, which this file does not test), and two
  // instances counting on their own admit 150 of 150.
  const env = { STORAGE: 'postgres', DATABASE_URL: pg.url, DATABASE_SCHEMA: schema, RATE_LIMIT_DB_TIMEOUT_MS: String(2 ** 31 - 1) };
  // Started together: both migrate at once, and both create the voter secret at once.
  // allSettled: when one fails to start, the other is still stopped (after), not left running.
  const started = await Promise.allSettled([startServerProcess(env), startServerProcess(env)]);
  servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  for (const s of started) if (s.status === 'rejected') throw s.reason;
});

test.after(async () => {
  try {
    await Promise.all(servers.map((s) => s.stop()));
  } finally {
    if (schema) await (await testPostgres()).dropSchema(schema);
    await closeTestDatabases();
  }
});

const on = (i: number) => servers[i % 2]!.port;

test('150 requests from one IP alternating between the instances: exactly 120 are admitted', async () => {
  const results: HttpResult[] = [];
  for (let start = 0; start < 150; start += 10) {
    const wave = Array.from({ length: 10 }, (_, j) => sendHttp(on(start + j), { path: '/api/v1/pricing', from: '127.0.0.5' }));
    results.push(...(await Promise.all(wave)));
  }
  assert.is(results.filter((r) => r.status === 200).length, 120);
  assert.is(results.filter((r) => r.status === 429).length, 30);
  const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers['ratelimit-remaining']));
  assert.equal(remaining.sort((a, b) => a - b), Array.from({ length: 120 }, (_, i) => i));
  const limited = results.find((r) => r.status === 429)!;
  assert.is(limited.json() && (limited.json() as { code: string }).code, 'rate_limited');
  for (const server of servers) assert.not.ok(server.lines.some((line) => line.includes('counting on this instance')));
});

test('a vote cast on one instance is seen on the other', async () => {
  const vote = await sendHttp(on(0), {
    method: 'POST',
    path: '/api/v1/roadmap',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ featureId: 1 }),
    from: '127.0.0.6',
  });
  assert.is(vote.status, 200);
  assert.equal(vote.json(), { voted: true, vote_count: 1 });
  const list = await sendHttp(on(1), { path: '/api/v1/roadmap', from: '127.0.0.6' });
  const feature = (list.json() as { features: { id: number; voted: boolean; vote_count: number }[] }).features[0]!;
  assert.equal([feature.id, feature.voted, feature.vote_count], [1, true, 1]);
});

test('40 concurrent votes from distinct IPs split across both are each counted once', async () => {
  const votes = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      sendHttp(on(i), {
        method: 'POST',
        path: '/api/v1/roadmap',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ featureId: 2 }),
        from: `127.0.1.${i + 1}`,
      })),
  );
  assert.ok(votes.every((v) => v.status === 200 && (v.json() as { voted: boolean }).voted));
  const counts = votes.map((v) => (v.json() as { vote_count: number }).vote_count).sort((a, b) => a - b);
  assert.equal(counts, Array.from({ length: 40 }, (_, i) => i + 1));
  for (const i of [0, 1]) {
    const list = await sendHttp(on(i), { path: '/api/v1/roadmap', from: '127.0.2.1' });
    const feature = (list.json() as { features: { id: number; vote_count: number }[] }).features.find((f) => f.id === 2);
    assert.is(feature?.vote_count, 40);
  }
});

test.run();
