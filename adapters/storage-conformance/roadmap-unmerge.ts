/**
 * Contract: undoing a roadmap merge. The duplicate is shown again and gets back the votes it had when
 * merged, from the feature it was merged into, if the voter still votes there; a moved vote leaves that
 * feature, a voter of both keeps both; counts stay exact, networks' caps included. Refusals: unknown, not
 * merged, and a target merged itself since.
 */
import * as assert from './assert.ts';
import { DEFAULT_VOTES_PER_NETWORK } from '../../core/ports/ports.ts';
import { type ContractSuite, current } from './context.ts';
import { feature, storedFeature as stored } from './fixtures.ts';

const CONTENT = [feature(1), feature(2), feature(4)];

export function roadmapUnmergeContract(test: ContractSuite): void {
  test('an unmerge shows the duplicate and moves back the votes that came from it, as their voters hold them now', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    for (const voter of ['a', 'b', 'c']) await storage.roadmap.toggleVote(2, voter);
    for (const voter of ['c', 'd']) await storage.roadmap.toggleVote(1, voter);
    assert.is((await storage.change((tx) => tx.features.merge(2, 1))).kind, 'merged', 'a merge: merge().kind');
    // Since the merge: a takes the vote back, e votes for the feature that stayed.
    assert.equal(
      await storage.roadmap.toggleVote(1, 'a'),
      { voted: false, vote_count: 3 },
      'a moved vote is taken back on the feature merged into: toggleVote()',
    );
    assert.equal(await storage.roadmap.toggleVote(1, 'e'), { voted: true, vote_count: 4 }, 'a new vote on the feature merged into: toggleVote()');
    assert.equal(await storage.change((tx) => tx.features.unmerge(2)), {
      kind: 'unmerged',
      shown: stored(2, { vote_count: 2 }),
      from: stored(1, { vote_count: 3 }),
      restored: 2,
    }, 'an unmerge shows the duplicate and moves back the votes that came from it, as their voters hold them now: unmerge()');
    const votedBy = async (voter: string) => (await storage.roadmap.listRoadmap(voter)).filter((f) => f.voted).map((f) => f.id);
    assert.equal(await votedBy('a'), [], 'a vote taken back since the merge stays taken back');
    assert.equal(await votedBy('b'), [2], "b's vote came from 2: it goes back");
    assert.equal(await votedBy('c'), [1, 2], 'c voted for both: both votes again');
    assert.equal(await votedBy('d'), [1], 'a vote made only on the feature merged into stays there: the features d voted for');
    assert.equal(await votedBy('e'), [1], 'a vote made since the merge stays where it was made: the features e voted for');
    assert.equal((await storage.features.list()).map((f) => [f.id, f.vote_count, f.visible, f.merged_into]), [[1, 3, true, null], [2, 2, true, null], [
      4,
      0,
      true,
      null,
    ]], 'counts stay exact, the duplicate shown again: features.list() [id, vote_count, visible, merged_into]');
    // The votes are ordinary votes again: toggles count from them.
    assert.equal(await storage.roadmap.toggleVote(2, 'b'), { voted: false, vote_count: 1 }, 'the votes moved back are ordinary votes again: toggleVote()');
    assert.is((await storage.change((tx) => tx.features.unmerge(2))).kind, 'not_merged', 'an unmerged feature is not merged: unmerge().kind');
  });

  test("an unmerge keeps a network's cap on what its votes count, on both features", async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    const many = DEFAULT_VOTES_PER_NETWORK + 2;
    for (let i = 0; i < many; i++) await storage.roadmap.toggleVote(2, `v6-${i}`, 'net-a');
    await storage.roadmap.toggleVote(1, 'v4');
    assert.is((await storage.change((tx) => tx.features.merge(2, 1))).kind, 'merged', 'a merge: merge().kind');
    assert.equal(
      (await storage.features.list())[0]!.vote_count,
      1 + DEFAULT_VOTES_PER_NETWORK,
      'a merge counts at most the cap of one /48: features.list()[0].vote_count',
    );
    const undone = await storage.change((tx) => tx.features.unmerge(2));
    assert.equal(
      undone.kind === 'unmerged' && [undone.shown.vote_count, undone.from.vote_count, undone.restored],
      [DEFAULT_VOTES_PER_NETWORK, 1, many],
      'an unmerge keeps the cap on both features: unmerge() [shown count, from count, restored]',
    );
    assert.equal(await storage.roadmap.toggleVote(1, 'v6-x', 'net-a'), { voted: true, vote_count: 2 }, 'the cap holds after the unmerge: toggleVote()');
  });

  test('an unmerge is refused for an unknown feature, one not merged (or shown again by an edit), and while its target is merged', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    await storage.roadmap.toggleVote(2, 'a');
    assert.equal(await storage.change((tx) => tx.features.unmerge(9)), { kind: 'not_found', id: 9 }, 'an unknown feature is refused: unmerge()');
    assert.equal(
      await storage.change((tx) => tx.features.unmerge(1)),
      { kind: 'not_merged', feature: stored(1) },
      'a feature not merged is refused: unmerge()',
    );
    await storage.change((tx) => tx.features.merge(2, 1));
    await storage.change((tx) => tx.features.merge(1, 4));
    assert.equal(
      await storage.change((tx) => tx.features.unmerge(2)),
      { kind: 'target_merged', into: stored(1, { visible: false, merged_into: 4 }) },
      'an unmerge is refused while its target is merged: unmerge()',
    );
    assert.equal(
      await storage.change((tx) => tx.features.unmerge(1)),
      { kind: 'unmerged', shown: stored(1, { vote_count: 1 }), from: stored(4), restored: 1 },
      'an unmerge of the target first: unmerge()',
    );
    assert.equal(
      await storage.change((tx) => tx.features.unmerge(2)),
      { kind: 'unmerged', shown: stored(2, { vote_count: 1 }), from: stored(1), restored: 1 },
      'then the duplicate: unmerge()',
    );
    // Merged, then shown by an edit: that ended the merge (the vote stays where it moved), nothing to undo.
    await storage.change((tx) => tx.features.merge(2, 1));
    await storage.change((tx) => tx.features.update(2, { visible: true }));
    assert.equal(
      await storage.change((tx) => tx.features.unmerge(2)),
      { kind: 'not_merged', feature: stored(2) },
      'a merge ended by an edit that showed it leaves nothing to undo: unmerge()',
    );
    assert.equal((await storage.features.list()).map((f) => f.vote_count), [1, 0, 0], 'the vote stays where it moved: features.list() vote counts');
    // A new merge records afresh.
    await storage.change((tx) => tx.features.merge(1, 2));
    assert.equal((await storage.change((tx) => tx.features.unmerge(1))).kind, 'unmerged', 'a new merge records afresh: unmerge().kind');
    assert.equal((await storage.features.list()).map((f) => f.vote_count), [1, 0, 0], 'the counts after a merge and its unmerge: features.list() vote counts');
  });
}
