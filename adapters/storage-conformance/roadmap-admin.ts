/**
 * Contract: the roadmap as the operator edits it. The config file's roadmap is applied only where it
 * changed since it was last applied, so an edit made through the operator API survives a restart; a
 * merge moves votes exactly, one per voter, and hides the duplicate.
 */
import * as assert from './assert.ts';
import { type ContractSuite, current } from './context.ts';
import { feature, storedFeature as stored } from './fixtures.ts';

const CONTENT = [feature(1), feature(2), feature(3, { visible: false })];

export function roadmapAdminContract(test: ContractSuite): void {
  test('the config roadmap is applied where it changed since last applied; operator edits elsewhere stay', async (context) => {
    const { storage } = current(context);
    assert.equal(
      await storage.roadmap.syncRoadmap(CONTENT),
      { applied: [1, 2, 3], hidden: [], first: true },
      'the first config roadmap is applied whole, reported as the seed: syncRoadmap()',
    );
    assert.equal(await storage.roadmap.syncRoadmap(CONTENT), { applied: [], hidden: [], first: false }, 'an unchanged config applies nothing: syncRoadmap()');
    await storage.change((tx) => tx.features.update(1, { title: 'Edited by the operator', release_version: '2.6.0' }));
    const added = await storage.change((tx) => tx.features.create({ title: 'Added', description: '', category: 'app', visible: true, release_version: null }));
    // A restart with the same config file: nothing is applied, the edit and the new feature stay.
    assert.equal(
      await storage.roadmap.syncRoadmap(CONTENT),
      { applied: [], hidden: [], first: false },
      "an operator's edit survives the same config: syncRoadmap()",
    );
    // The config file changes feature 2 and drops feature 1: only those are applied.
    assert.equal(await storage.roadmap.syncRoadmap([feature(2, { title: 'Renamed in config' }), feature(3, { visible: false })]), {
      applied: [2],
      hidden: [1],
      first: false,
    }, 'only what the config changed or dropped is applied or hidden: syncRoadmap()');
    const dropped = "a feature the config drops is hidden and no longer the config's (from_config false)";
    assert.equal(await storage.features.list(), [
      stored(1, { title: 'Edited by the operator', release_version: '2.6.0', visible: false, from_config: false }),
      stored(2, { title: 'Renamed in config' }),
      stored(3, { visible: false }),
      stored(added.id, { title: 'Added', description: '', category: 'app', from_config: false }),
    ], `${dropped}; a created one is not the config's either: features.list()`);
    // Feature 1 is the operator's now: a later config file without it does not report it again.
    assert.equal(await storage.roadmap.syncRoadmap([feature(2, { title: 'Renamed in config' }), feature(3, { visible: false })]), {
      applied: [],
      hidden: [],
      first: false,
    }, `${dropped}: a later file without it does not report it again: syncRoadmap()`);
    // Listed again, it is applied and is the config's again.
    const regained = "a feature the config lists again is applied and is the config's again (from_config true)";
    const again = [feature(1), feature(2, { title: 'Renamed in config' }), feature(3, { visible: false })];
    assert.equal(await storage.roadmap.syncRoadmap(again), { applied: [1], hidden: [], first: false }, `${regained}: syncRoadmap()`);
    assert.equal((await storage.features.list())[0], stored(1), `${regained}: features.list()[0]`);
  });

  test('a created feature takes the next id above every existing one; an edit changes only what it gives', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap([feature(1), feature(7)]);
    const added = await storage.change((tx) =>
      tx.features.create({ title: 'New', description: 'Text', category: 'app', visible: false, release_version: null })
    );
    assert.equal(
      added,
      stored(8, { title: 'New', description: 'Text', category: 'app', visible: false, from_config: false }),
      "a created feature takes the next id above every existing one, not the config's: create()",
    );
    assert.equal(
      await storage.change((tx) => tx.features.update(8, { visible: true })),
      { ...added, visible: true },
      'an edit changes only what it gives: update()',
    );
    assert.equal(
      await storage.change((tx) => tx.features.update(7, { release_version: '2.5.0' })),
      stored(7, { release_version: '2.5.0' }),
      'an edit changes only what it gives: update()',
    );
    assert.equal(
      await storage.change((tx) => tx.features.update(7, { release_version: null, title: undefined })),
      stored(7),
      'an undefined field stays as it is: update()',
    );
    assert.is(await storage.change((tx) => tx.features.update(99, { visible: false })), null, 'an unknown feature is null: update()');
    assert.equal((await storage.roadmap.listRoadmap('v')).map((f) => f.id), [1, 7, 8], 'the visible features in id order: listRoadmap() ids');
  });

  test('a merge moves the votes, one per voter, hides the duplicate and keeps counts exact', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    for (const voter of ['a', 'b', 'c']) await storage.roadmap.toggleVote(2, voter);
    for (const voter of ['c', 'd']) await storage.roadmap.toggleVote(1, voter);
    const outcome = await storage.change((tx) => tx.features.merge(2, 1));
    assert.equal(outcome, {
      kind: 'merged',
      from: stored(2, { visible: false, merged_into: 1 }),
      into: stored(1, { vote_count: 4 }),
      moved: 2,
    }, 'a merge moves the votes, one per voter, hides the duplicate with merged_into: merge()');
    assert.equal(await storage.roadmap.listRoadmap('c'), [
      { id: 1, title: 'Feature 1', description: 'About 1', category: 'formats', vote_count: 4, voted: true, release_version: null },
    ], 'the duplicate is hidden; the count is exact: listRoadmap()');
    assert.is(await storage.roadmap.toggleVote(2, 'a'), null, 'a merged feature cannot be voted for: toggleVote()');
    assert.equal(
      await storage.roadmap.toggleVote(1, 'a'),
      { voted: false, vote_count: 3 },
      "a moved vote is the voter's on the feature merged into: toggleVote()",
    );
    assert.equal(await storage.roadmap.toggleVote(1, 'e'), { voted: true, vote_count: 4 }, 'a new voter counts from the exact count: toggleVote()');
  });

  test('a merge is refused for an unknown feature, one merged before, and a hidden target', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap(CONTENT);
    await storage.roadmap.toggleVote(2, 'a');
    assert.equal(await storage.change((tx) => tx.features.merge(9, 1)), { kind: 'not_found', id: 9 }, 'a merge from an unknown feature is refused: merge()');
    assert.equal(await storage.change((tx) => tx.features.merge(1, 9)), { kind: 'not_found', id: 9 }, 'a merge into an unknown feature is refused: merge()');
    assert.equal(
      await storage.change((tx) => tx.features.merge(2, 3)),
      { kind: 'hidden_target', into: stored(3, { visible: false }) },
      'a merge into a hidden feature is refused: merge()',
    );
    assert.equal((await storage.change((tx) => tx.features.merge(2, 1))).kind, 'merged', 'a merge of a visible duplicate into a visible feature: merge().kind');
    assert.equal(
      await storage.change((tx) => tx.features.merge(2, 1)),
      { kind: 'already_merged', from: stored(2, { visible: false, merged_into: 1 }) },
      'a feature merged before is refused: merge()',
    );
    // Shown again, it is no longer merged and starts from no votes; its voter's vote is on feature 1.
    assert.equal(
      await storage.change((tx) => tx.features.update(2, { visible: true })),
      stored(2),
      'showing a merged feature ends its merge, with no votes: update()',
    );
    assert.equal((await storage.roadmap.listRoadmap('a')).map((f) => [f.id, f.vote_count, f.voted]), [
      [1, 1, true],
      [2, 0, false],
    ], "its voter's vote stays on the feature merged into: listRoadmap() [id, vote_count, voted]");
  });
}
