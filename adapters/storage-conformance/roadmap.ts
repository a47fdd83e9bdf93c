/**
 * Contract: the roadmap sync, the per-voter list and the vote toggle.
 */
import * as assert from './assert.ts';
import { type ContractSuite, current } from './context.ts';
import { feature } from './fixtures.ts';

const CONTENT = [feature(3), feature(1, { release_version: '2.5' }), feature(2, { visible: false })];

export function roadmapContract(test: ContractSuite): void {
  test('the list has the visible features in id order, with no votes', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    assert.equal(await storage.roadmap.listRoadmap('voter-a'), [
      { id: 1, title: 'Feature 1', description: 'About 1', category: 'formats', vote_count: 0, voted: false, release_version: '2.5' },
      { id: 3, title: 'Feature 3', description: 'About 3', category: 'formats', vote_count: 0, voted: false, release_version: null },
    ]);
  });

  test('a toggle votes, a second toggle by the same voter takes the vote back', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    assert.equal(await storage.roadmap.toggleVote(1, 'voter-a'), { voted: true, vote_count: 1 });
    assert.equal(await storage.roadmap.toggleVote(1, 'voter-b'), { voted: true, vote_count: 2 });
    assert.equal(await storage.roadmap.toggleVote(1, 'voter-a'), { voted: false, vote_count: 1 });
    const list = await storage.roadmap.listRoadmap('voter-b');
    assert.equal(
      list.map((f) => [f.id, f.vote_count, f.voted]),
      [
        [1, 1, true],
        [3, 0, false],
      ],
    );
    assert.equal((await storage.roadmap.listRoadmap('voter-a')).map((f) => f.voted), [false, false]);
  });

  test('a hidden, unknown or out-of-range feature cannot be voted for', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    assert.is(await storage.roadmap.toggleVote(2, 'voter-a'), null);
    assert.is(await storage.roadmap.toggleVote(99, 'voter-a'), null);
    assert.is(await storage.roadmap.toggleVote(2 ** 31, 'voter-a'), null);
    assert.is(await storage.roadmap.toggleVote(1e15, 'voter-a'), null);
  });

  test('a re-sync updates texts, hides what the content dropped, and keeps every vote', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    await storage.roadmap.toggleVote(1, 'voter-a');
    await storage.roadmap.toggleVote(3, 'voter-a');
    await storage.roadmap.toggleVote(3, 'voter-b');
    await storage.roadmap.syncRoadmap([feature(1, { title: 'Renamed', category: 'import', release_version: null }), feature(2)]);
    assert.equal(await storage.roadmap.listRoadmap('voter-a'), [
      { id: 1, title: 'Renamed', description: 'About 1', category: 'import', vote_count: 1, voted: true, release_version: null },
      { id: 2, title: 'Feature 2', description: 'About 2', category: 'formats', vote_count: 0, voted: false, release_version: null },
    ]);
    assert.is(await storage.roadmap.toggleVote(3, 'voter-a'), null);
    await storage.roadmap.syncRoadmap(CONTENT);
    assert.equal(
      (await storage.roadmap.listRoadmap('voter-b')).map((f) => [f.id, f.vote_count, f.voted]),
      [
        [1, 1, false],
        [3, 2, true],
      ],
    );
  });

  test('a feature counts at most 8 votes of one IPv6 /48, each toggle answering the count after itself', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    const voters = Array.from({ length: 12 }, (_, i) => `v6-voter-${i}`);
    const counts: number[] = [];
    for (const voter of voters) counts.push((await storage.roadmap.toggleVote(1, voter, 'net-a'))!.vote_count);
    assert.equal(counts, [1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8]);
    // Other networks and IPv4 voters count as before.
    assert.equal(await storage.roadmap.toggleVote(1, 'v6-other', 'net-b'), { voted: true, vote_count: 9 });
    assert.equal(await storage.roadmap.toggleVote(1, '198.51.100.7-hash'), { voted: true, vote_count: 10 });
    // Each of net-a's voters sees its own vote and may take it back; the count drops once net-a holds 8 or fewer.
    assert.is((await storage.roadmap.listRoadmap('v6-voter-11'))[0]!.voted, true);
    const back: number[] = [];
    for (const voter of voters.slice(0, 6)) back.push((await storage.roadmap.toggleVote(1, voter, 'net-a'))!.vote_count);
    assert.equal(back, [10, 10, 10, 10, 9, 8]);
    assert.is((await storage.roadmap.listRoadmap('nobody'))[0]!.vote_count, 8);
    // Concurrent toggles of one batch follow the same rule.
    const batch = await Promise.all(voters.slice(0, 6).map((voter) => storage.roadmap.toggleVote(1, voter, 'net-a')));
    assert.equal(batch.map((r) => r!.vote_count).sort((a, b) => a - b), [9, 10, 10, 10, 10, 10]);
    assert.is((await storage.roadmap.listRoadmap('nobody'))[0]!.vote_count, 10);
  });

  test('a merge counts the moved votes as the toggles do: at most 8 of one /48', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    for (let i = 0; i < 6; i++) await storage.roadmap.toggleVote(1, `m-${i}`, 'net-m');
    for (let i = 3; i < 10; i++) await storage.roadmap.toggleVote(3, `m-${i}`, 'net-m');
    await storage.roadmap.toggleVote(3, 'ipv4-hash');
    const outcome = await storage.change((tx) => tx.features.merge(3, 1));
    assert.is(outcome.kind === 'merged' && outcome.into.vote_count, 9);
    assert.is((await storage.roadmap.listRoadmap('m-9'))[0]!.vote_count, 9);
    assert.equal(await storage.roadmap.toggleVote(1, 'm-0', 'net-m'), { voted: false, vote_count: 9 });
    assert.equal(await storage.roadmap.toggleVote(1, 'm-1', 'net-m'), { voted: false, vote_count: 9 });
    assert.equal(await storage.roadmap.toggleVote(1, 'm-2', 'net-m'), { voted: false, vote_count: 8 });
  });
}
