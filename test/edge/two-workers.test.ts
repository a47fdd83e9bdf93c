/**
 * Two `npm run start:workers` processes (two workerd, two isolates) on one PostgreSQL schema: the rate
 * limit, votes and feedback are shared exactly, as between two Cloudflare locations.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import postgres from 'postgres';
import { type HttpResult, sendRequest } from '../_client.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { startWorkersProgram, type WorkersProgram } from '../_workers-program.ts';

let workers: WorkersProgram[] = [];
let schema = '';
let url = '';

test.before(async () => {
  const pg = await testPostgres();
  schema = await pg.freshSchema();
  url = pg.url;
  const env = { DATABASE_URL: pg.url, DATABASE_SCHEMA: schema };
  // Started together: both migrate at once, and both isolates create the voter secret at once.
  workers = await Promise.all([startWorkersProgram(env), startWorkersProgram(env)]);
});

test.after(async () => {
  const codes = await Promise.all(workers.map((w) => w.stop()));
  await (await testPostgres()).dropSchema(schema);
  await closeTestDatabases();
  assert.equal(codes, workers.map(() => 0), 'both stop cleanly on SIGTERM');
});

const on = (i: number) => workers[i % 2]!.url;
const json = (r: HttpResult) => r.json() as Record<string, unknown>;

test('150 requests from one client alternating between the two: exactly 120 are admitted', async () => {
  const results: HttpResult[] = [];
  for (let start = 0; start < 150; start += 10) {
    const wave = Array.from({ length: 10 }, (_, j) => sendRequest(on(start + j), { path: '/api/v1/pricing', from: '127.0.0.5' }));
    results.push(...(await Promise.all(wave)));
  }
  assert.is(results.filter((r) => r.status === 200).length, 120);
  assert.is(results.filter((r) => r.status === 429).length, 30);
  const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers['ratelimit-remaining']));
  assert.equal(remaining.sort((a, b) => a - b), Array.from({ length: 120 }, (_, i) => i));
  assert.is(json(results.find((r) => r.status === 429)!)['code'], 'rate_limited');
});

test('a vote cast on one is seen on the other, and 40 concurrent votes split across both count once each', async () => {
  const vote = (i: number, from: string, featureId: number) =>
    sendRequest(on(i), { method: 'POST', path: '/api/v1/roadmap', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ featureId }), from });
  assert.equal(json(await vote(0, '127.0.0.6', 1)), { voted: true, vote_count: 1 });
  const list = (await sendRequest(on(1), { path: '/api/v1/roadmap', from: '127.0.0.6' })).json() as {
    features: { id: number; voted: boolean; vote_count: number }[];
  };
  assert.equal(list.features[0], { ...list.features[0], id: 1, voted: true, vote_count: 1 });

  const votes = await Promise.all(Array.from({ length: 40 }, (_, i) => vote(i, `127.0.1.${i + 1}`, 2)));
  assert.ok(votes.every((v) => v.status === 200 && json(v)['voted'] === true), votes.map((v) => v.text).join('\n'));
  assert.equal(votes.map((v) => Number(json(v)['vote_count'])).sort((a, b) => a - b), Array.from({ length: 40 }, (_, i) => i + 1));
  for (const i of [0, 1]) {
    const seen = (await sendRequest(on(i), { path: '/api/v1/roadmap', from: '127.0.2.1' })).json() as { features: { id: number; vote_count: number }[] };
    assert.is(seen.features.find((f) => f.id === 2)?.vote_count, 40);
  }
});

test('feedback sent to either is stored once, committed before the answer', async () => {
  const sent = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      sendRequest(on(i), {
        method: 'POST',
        path: '/api/v1/feedback',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ description: `edge note ${i}`, type: 'general' }),
        from: `127.0.3.${i + 1}`,
      })),
  );
  assert.equal(sent.map((r) => r.status), Array(10).fill(201));
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql.unsafe(`select description from "${schema}".feedback order by description`);
    assert.equal(rows.map((r) => r['description']), Array.from({ length: 10 }, (_, i) => `edge note ${i}`));
  } finally {
    await sql.end();
  }
});

test.run();
