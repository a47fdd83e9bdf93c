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
    ], 'the visible features in id order, with no votes: listRoadmap()');
  });

  test('a toggle votes, a second toggle by the same voter takes the vote back', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    assert.equal(await storage.roadmap.toggleVote(1, 'voter-a'), { voted: true, vote_count: 1 }, 'a toggle votes: toggleVote()');
    assert.equal(await storage.roadmap.toggleVote(1, 'voter-b'), { voted: true, vote_count: 2 }, "each voter's toggle counts: toggleVote()");
    assert.equal(
      await storage.roadmap.toggleVote(1, 'voter-a'),
      { voted: false, vote_count: 1 },
      'a second toggle by the same voter takes the vote back: toggleVote()',
    );
    const list = await storage.roadmap.listRoadmap('voter-b');
    assert.equal(
      list.map((f) => [f.id, f.vote_count, f.voted]),
      [
        [1, 1, true],
        [3, 0, false],
      ],
      'each voter sees its own vote and the count: listRoadmap() [id, vote_count, voted]',
    );
    assert.equal(
      (await storage.roadmap.listRoadmap('voter-a')).map((f) => f.voted),
      [false, false],
      'a vote taken back is not shown as voted: listRoadmap() voted',
    );
  });

  test('a hidden, unknown or out-of-range feature cannot be voted for', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    assert.is(await storage.roadmap.toggleVote(2, 'voter-a'), null, 'a hidden feature cannot be voted for: toggleVote()');
    assert.is(await storage.roadmap.toggleVote(99, 'voter-a'), null, 'an unknown feature cannot be voted for: toggleVote()');
    assert.is(await storage.roadmap.toggleVote(2 ** 31, 'voter-a'), null, 'an out-of-range id is unknown: toggleVote(2 ** 31)');
    assert.is(await storage.roadmap.toggleVote(1e15, 'voter-a'), null, 'an out-of-range id is unknown: toggleVote(1e15)');
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
    ], 'a re-sync updates texts, hides what the content dropped, keeps every vote: listRoadmap()');
    assert.is(await storage.roadmap.toggleVote(3, 'voter-a'), null, 'a feature the content dropped cannot be voted for: toggleVote()');
    await storage.roadmap.syncRoadmap(CONTENT);
    assert.equal(
      (await storage.roadmap.listRoadmap('voter-b')).map((f) => [f.id, f.vote_count, f.voted]),
      [
        [1, 1, false],
        [3, 2, true],
      ],
      'a feature listed again shows its votes again: listRoadmap() [id, vote_count, voted]',
    );
  });

  test('a feature counts at most 8 votes of one IPv6 /48, each toggle answering the count after itself', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    const voters = Array.from({ length: 12 }, (_, i) => `v6-voter-${i}`);
    const counts: number[] = [];
    for (const voter of voters) counts.push((await storage.roadmap.toggleVote(1, voter, 'net-a'))!.vote_count);
    assert.equal(
      counts,
      [1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 8],
      'a feature counts at most 8 votes of one /48, each toggle answering the count after itself: toggleVote() counts',
    );
    // Other networks and IPv4 voters count as before.
    assert.equal(await storage.roadmap.toggleVote(1, 'v6-other', 'net-b'), { voted: true, vote_count: 9 }, 'another /48 counts on its own: toggleVote()');
    assert.equal(await storage.roadmap.toggleVote(1, '198.51.100.7-hash'), { voted: true, vote_count: 10 }, 'an IPv4 voter counts as before: toggleVote()');
    // Each of net-a's voters sees its own vote and may take it back; the count drops once net-a holds 8 or fewer.
    assert.is((await storage.roadmap.listRoadmap('v6-voter-11'))[0]!.voted, true, "a vote past the cap is still the voter's: listRoadmap().voted");
    const back: number[] = [];
    for (const voter of voters.slice(0, 6)) back.push((await storage.roadmap.toggleVote(1, voter, 'net-a'))!.vote_count);
    assert.equal(back, [10, 10, 10, 10, 9, 8], 'a vote taken back lowers the count only once the /48 holds 8 or fewer: toggleVote() counts');
    assert.is((await storage.roadmap.listRoadmap('nobody'))[0]!.vote_count, 8, 'the count is the capped one: listRoadmap() vote_count');
    // Concurrent toggles of one batch follow the same rule.
    const batch = await Promise.all(voters.slice(0, 6).map((voter) => storage.roadmap.toggleVote(1, voter, 'net-a')));
    assert.equal(
      batch.map((r) => r!.vote_count).sort((a, b) => a - b),
      [9, 10, 10, 10, 10, 10],
      'concurrent toggles follow the same cap: toggleVote() counts, sorted',
    );
    assert.is((await storage.roadmap.listRoadmap('nobody'))[0]!.vote_count, 10, 'the count after concurrent toggles: listRoadmap() vote_count');
  });

  test('a merge counts the moved votes as the toggles do: at most 8 of one /48', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    for (let i = 0; i < 6; i++) await storage.roadmap.toggleVote(1, `m-${i}`, 'net-m');
    for (let i = 3; i < 10; i++) await storage.roadmap.toggleVote(3, `m-${i}`, 'net-m');
    await storage.roadmap.toggleVote(3, 'ipv4-hash');
    const outcome = await storage.change((tx) => tx.features.merge(3, 1));
    assert.is(
      outcome.kind === 'merged' && outcome.into.vote_count,
      9,
      'a merge counts the moved votes as the toggles do, at most 8 of one /48: merge().into.vote_count',
    );
    assert.is((await storage.roadmap.listRoadmap('m-9'))[0]!.vote_count, 9, 'the merged count is served: listRoadmap() vote_count');
    assert.equal(
      await storage.roadmap.toggleVote(1, 'm-0', 'net-m'),
      { voted: false, vote_count: 9 },
      'a moved vote past the cap is taken back without lowering the count: toggleVote()',
    );
    assert.equal(
      await storage.roadmap.toggleVote(1, 'm-1', 'net-m'),
      { voted: false, vote_count: 9 },
      'a moved vote past the cap is taken back without lowering the count: toggleVote()',
    );
    assert.equal(
      await storage.roadmap.toggleVote(1, 'm-2', 'net-m'),
      { voted: false, vote_count: 8 },
      'once the /48 holds 8, a vote taken back lowers the count: toggleVote()',
    );
  });
}
