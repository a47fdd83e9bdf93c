/**
 * Contract: the operator's roadmap edits in a unit of work (`Storage.change`). A merge, an unmerge, an
 * edit or a create in a change that throws leaves nothing behind: features, votes, counts and a merge's
 * record are as before, and the public roadmap never showed them. One that commits is served at once.
 */
import * as assert from './assert.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { type ContractSuite, current } from './context.ts';
import { feature } from './fixtures.ts';

/** The public roadmap as voter `a` sees it: id, count, whether a voted. */
const shown = async (storage: Storage) => (await storage.roadmap.listRoadmap('a')).map((f) => [f.id, f.vote_count, f.voted]);

/** Runs a change that throws once its work is done; answers what it threw. */
const refused = (storage: Storage, work: Parameters<Storage['change']>[0]) =>
  storage
    .change(async (tx) => {
      await work(tx);
      throw new Error('refused after the writes');
    })
    .catch((error: unknown) => String(error));

export function roadmapChangeContract(test: ContractSuite): void {
  test('a merge, an unmerge, an edit and a create in a change that throws are undone, votes included; committed, they are served at once', async (context) => {
    const { storage } = current(context);
    await storage.roadmap.syncRoadmap([feature(1), feature(2), feature(4)]);
    for (const voter of ['a', 'b']) await storage.roadmap.toggleVote(2, voter);
    for (const voter of ['b', 'c']) await storage.roadmap.toggleVote(1, voter);
    const before = { features: await storage.features.list(), roadmap: await shown(storage) };
    const thrown = await refused(storage, async (tx) => {
      assert.is((await tx.features.merge(2, 1)).kind, 'merged', 'a merge in a change: merge().kind');
      assert.equal(
        (await tx.features.list()).map((f) => [f.id, f.vote_count, f.visible]),
        [[1, 3, true], [2, 0, false], [4, 0, true]],
        'a change reads its own merge',
      );
      await tx.features.update(4, { title: 'Renamed' });
      await tx.features.create({ title: 'New', description: '', category: 'app', visible: true, release_version: null });
    });
    assert.is(thrown, 'Error: refused after the writes', "the change's error comes out as thrown");
    assert.equal(
      { features: await storage.features.list(), roadmap: await shown(storage) },
      before,
      'a merge, an edit and a create in a change that throws are undone, votes included: features.list() and the public roadmap',
    );
    assert.equal(await storage.roadmap.toggleVote(2, 'a'), { voted: false, vote_count: 1 }, 'the votes stayed on the duplicate');
    assert.equal(await storage.roadmap.toggleVote(2, 'a'), { voted: true, vote_count: 2 }, 'the votes stayed on the duplicate: a second toggleVote()');

    await storage.change(async (tx) => void (await tx.features.merge(2, 1)));
    assert.equal(await shown(storage), [[1, 3, true], [4, 0, false]], 'a committed merge is served at once');
    assert.is(
      await refused(storage, async (tx) => assert.is((await tx.features.unmerge(2)).kind, 'unmerged', 'an unmerge in a change: unmerge().kind')),
      'Error: refused after the writes',
      "the change's error comes out as thrown",
    );
    assert.equal(await shown(storage), [[1, 3, true], [4, 0, false]], 'the merge stands');
    assert.equal(
      await storage.roadmap.toggleVote(1, 'd'),
      { voted: true, vote_count: 4 },
      'the committed merge stands: toggleVote() on the feature merged into',
    );
    // The merge's record stood too: a's vote came from 2 and goes back; b voted for both and keeps both.
    await storage.change(async (tx) => void (await tx.features.unmerge(2)));
    assert.equal(await shown(storage), [[1, 3, false], [2, 2, true], [4, 0, false]], 'a committed unmerge is served at once');
    await storage.change(async (tx) => void (await tx.features.update(4, { visible: false })));
    assert.equal(await shown(storage), [[1, 3, false], [2, 2, true]], 'a committed edit is served at once');
  });
}
