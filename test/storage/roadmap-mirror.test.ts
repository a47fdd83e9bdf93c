/**
 * The roadmap in memory over PGlite (the storage's `exclusive` mode): it starts from what the database
 * holds, and under concurrent toggles and reads it answers exactly what the database stores.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SqlClient } from '../../adapters/sql/client.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import type { RoadmapFeature } from '../../core/ports/ports.ts';
import { closeTestDatabases, pgliteClient } from '../_databases.ts';

const test = suite<{ client: SqlClient | null }>('roadmap in memory over PGlite', { client: null });

const FEATURES: RoadmapFeature[] = [1, 2, 3].map((id) => ({
  id,
  title: `Feature ${id}`,
  description: `About ${id}`,
  category: 'export',
  visible: id !== 3,
  release_version: null,
}));

test.before.each(async (context) => {
  context.client = await pgliteClient();
  await migrate(context.client);
});

test.after.each(async (context) => {
  await context.client?.exec(`drop schema "${context.client.schema}" cascade`);
});

const open = (client: SqlClient) => createSqlStorage(client, { exclusive: {} });

test('a storage opened on the database later starts from its votes and counts', async ({ client }) => {
  const first = open(client!);
  await first.roadmap.syncRoadmap(FEATURES);
  await first.roadmap.toggleVote(1, 'a');
  await first.roadmap.toggleVote(1, 'b');
  await first.roadmap.toggleVote(2, 'a');
  await client!.query(`update roadmap_features set vote_count = 40 where id = 2`);
  const again = open(client!);
  await again.roadmap.syncRoadmap(FEATURES);
  const seen = async (voter: string) => (await again.roadmap.listRoadmap(voter)).map((f) => [f.id, f.vote_count, f.voted]);
  assert.equal(await seen('a'), [[1, 2, true], [2, 40, true]]);
  assert.equal(await seen('b'), [[1, 2, true], [2, 40, false]]);
  assert.equal(await seen('c'), [[1, 2, false], [2, 40, false]]);
  assert.equal(await again.roadmap.toggleVote(1, 'a'), { voted: false, vote_count: 1 });
  assert.equal(await seen('a'), [[1, 1, false], [2, 40, true]]);
});

test('reads between 120 concurrent toggles answer what the database stores once they settle', async ({ client }) => {
  const storage = open(client!);
  await storage.roadmap.syncRoadmap(FEATURES);
  const voters = Array.from({ length: 30 }, (_, i) => `v${i}`);
  const work: Promise<unknown>[] = [];
  for (let i = 0; i < 120; i++) {
    work.push(Promise.resolve(storage.roadmap.toggleVote((i % 3) + 1, voters[(i * 7) % 30]!)));
    if (i % 10 === 0) work.push(Promise.resolve(storage.roadmap.listRoadmap(voters[i % 30]!)));
  }
  await Promise.all(work);
  const stored = await client!.query<{ feature_id: number; voter_id: string }>(
    `select v.feature_id, v.voter_id from roadmap_votes v join roadmap_features f on f.id = v.feature_id where f.visible`,
  );
  for (const voter of voters) {
    const views = await storage.roadmap.listRoadmap(voter);
    assert.equal(
      views.map((f) => [f.id, f.vote_count, f.voted]),
      [1, 2].map((id) => [
        id,
        stored.filter((row) => row.feature_id === id).length,
        stored.some((row) => row.feature_id === id && row.voter_id === voter),
      ]),
    );
  }
});

test('toggles of one batch answer in order, and only their net change is stored', async ({ client }) => {
  const storage = open(client!);
  await storage.roadmap.syncRoadmap(FEATURES);
  const answers = await Promise.all([
    storage.roadmap.toggleVote(1, 'a'),
    storage.roadmap.toggleVote(1, 'a'),
    storage.roadmap.toggleVote(1, 'b'),
    storage.roadmap.toggleVote(2, 'a'),
    storage.roadmap.toggleVote(3, 'a'),
  ]);
  assert.equal(answers, [
    { voted: true, vote_count: 1 },
    { voted: false, vote_count: 0 },
    { voted: true, vote_count: 1 },
    { voted: true, vote_count: 1 },
    null,
  ]);
  const votes = await client!.query<{ feature_id: number; voter_id: string }>('select feature_id, voter_id from roadmap_votes order by 1, 2');
  assert.equal(votes.map((v) => [v.feature_id, v.voter_id]), [[1, 'b'], [2, 'a']]);
  const counts = await client!.query<{ id: number; vote_count: number }>('select id, vote_count from roadmap_features order by id');
  assert.equal(counts.map((c) => [c.id, c.vote_count]), [[1, 1], [2, 1], [3, 0]]);
});

test('a batch whose statement fails changes nothing in memory, and the next one starts from there', async ({ client }) => {
  let failing = true;
  const flaky: SqlClient = {
    ...client!,
    query: (text, params) => (failing && text.includes('withdrawn') ? Promise.reject(new Error('disk full')) : client!.query(text, params)),
  };
  const storage = createSqlStorage(flaky, { exclusive: {} });
  await storage.roadmap.syncRoadmap(FEATURES);
  const failed = await Promise.allSettled([storage.roadmap.toggleVote(1, 'a'), storage.roadmap.toggleVote(2, 'a')]);
  assert.equal(failed.map((f) => (f.status === 'rejected' ? (f.reason as Error).message : 'answered')), ['disk full', 'disk full']);
  assert.equal((await storage.roadmap.listRoadmap('a')).map((f) => [f.id, f.vote_count, f.voted]), [[1, 0, false], [2, 0, false]]);
  failing = false;
  assert.equal(await storage.roadmap.toggleVote(1, 'a'), { voted: true, vote_count: 1 });
  const votes = await client!.query<{ feature_id: number }>('select feature_id from roadmap_votes');
  assert.equal(votes.map((v) => v.feature_id), [1]);
});

test.after(closeTestDatabases);
test.run();
