/**
 * A merge made before migration 29 recorded no votes: unmerging it is refused (not_recorded) and changes
 * nothing, on PGlite and on PostgreSQL; a merge made after the migration on the same database is undone.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import { closeTestDatabases, pgliteSchema, postgresSchema, type SchemaClient } from '../_databases.ts';
import { withOldMerge } from '../_old-merge.ts';

for (const [name, open] of [['pglite', pgliteSchema], ['postgres', () => postgresSchema()]] as const) {
  const test = suite(`unmerging a merge older than migration 29: ${name}`);
  let opened: SchemaClient;
  test.before.each(async () => {
    opened = await open();
  });
  test.after.each(async () => {
    await opened.drop();
  });
  test.after(closeTestDatabases);

  test('is refused, and nothing changes; a merge made since is undone', async () => {
    await withOldMerge(opened.client);
    const storage = createSqlStorage(opened.client);
    const before = await storage.features.list();
    assert.equal(before.map((f) => [f.id, f.vote_count, f.visible, f.merged_into]), [[101, 2, true, null], [102, 0, false, 101]]);
    const refused = await storage.change((tx) => tx.features.unmerge(102));
    assert.equal(refused, { kind: 'not_recorded', feature: before[1] });
    assert.equal(await storage.features.list(), before);
    // Shown again by an edit (as the refusal's resolution says), then merged anew: that merge is recorded.
    await storage.change((tx) => tx.features.update(102, { visible: true }));
    await storage.roadmap.toggleVote(102, 'c');
    assert.is((await storage.change((tx) => tx.features.merge(102, 101))).kind, 'merged');
    const undone = await storage.change((tx) => tx.features.unmerge(102));
    assert.equal(undone.kind === 'unmerged' && [undone.shown.vote_count, undone.from.vote_count, undone.restored], [1, 2, 1]);
  });

  test.run();
}
