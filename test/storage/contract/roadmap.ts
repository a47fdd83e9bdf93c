/**
 * Contract: the roadmap sync, the per-voter list and the vote toggle.
 */
import * as assert from 'uvu/assert';
import type { RoadmapFeature } from '../../../core/ports.ts';
import { current, type ContractSuite } from './context.ts';

const feature = (id: number, over: Partial<RoadmapFeature> = {}): RoadmapFeature => ({
  id,
  title: `Feature ${id}`,
  description: `About ${id}`,
  category: 'export',
  visible: true,
  release_version: null,
  ...over,
});

const CONTENT = [feature(3), feature(1, { release_version: '2.5' }), feature(2, { visible: false })];

export function roadmapContract(test: ContractSuite): void {
  test('the list has the visible features in id order, with no votes', async (context) => {
    const { storage } = current(context);
    await storage.syncRoadmap(CONTENT);
    assert.equal(await storage.listRoadmap('voter-a'), [
      { id: 1, title: 'Feature 1', description: 'About 1', category: 'export', vote_count: 0, voted: false, release_version: '2.5' },
      { id: 3, title: 'Feature 3', description: 'About 3', category: 'export', vote_count: 0, voted: false, release_version: null },
    ]);
  });

  test('a toggle votes, a second toggle by the same voter takes the vote back', async (context) => {
    const { storage } = current(context);
    await storage.syncRoadmap(CONTENT);
    assert.equal(await storage.toggleVote(1, 'voter-a'), { voted: true, vote_count: 1 });
    assert.equal(await storage.toggleVote(1, 'voter-b'), { voted: true, vote_count: 2 });
    assert.equal(await storage.toggleVote(1, 'voter-a'), { voted: false, vote_count: 1 });
    const list = await storage.listRoadmap('voter-b');
    assert.equal(
      list.map((f) => [f.id, f.vote_count, f.voted]),
      [
        [1, 1, true],
        [3, 0, false],
      ],
    );
    assert.equal((await storage.listRoadmap('voter-a')).map((f) => f.voted), [false, false]);
  });

  test('a hidden, unknown or out-of-range feature cannot be voted for', async (context) => {
    const { storage } = current(context);
    await storage.syncRoadmap(CONTENT);
    assert.is(await storage.toggleVote(2, 'voter-a'), null);
    assert.is(await storage.toggleVote(99, 'voter-a'), null);
    assert.is(await storage.toggleVote(2 ** 31, 'voter-a'), null);
    assert.is(await storage.toggleVote(1e15, 'voter-a'), null);
  });

  test('a re-sync updates texts, hides what the content dropped, and keeps every vote', async (context) => {
    const { storage } = current(context);
    await storage.syncRoadmap(CONTENT);
    await storage.toggleVote(1, 'voter-a');
    await storage.toggleVote(3, 'voter-a');
    await storage.toggleVote(3, 'voter-b');
    await storage.syncRoadmap([feature(1, { title: 'Renamed', category: 'import', release_version: null }), feature(2)]);
    assert.equal(await storage.listRoadmap('voter-a'), [
      { id: 1, title: 'Renamed', description: 'About 1', category: 'import', vote_count: 1, voted: true, release_version: null },
      { id: 2, title: 'Feature 2', description: 'About 2', category: 'export', vote_count: 0, voted: false, release_version: null },
    ]);
    assert.is(await storage.toggleVote(3, 'voter-a'), null);
    await storage.syncRoadmap(CONTENT);
    assert.equal(
      (await storage.listRoadmap('voter-b')).map((f) => [f.id, f.vote_count, f.voted]),
      [
        [1, 1, false],
        [3, 2, true],
      ],
    );
  });
}
