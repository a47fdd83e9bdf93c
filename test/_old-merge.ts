/**
 * A database with a roadmap merge made before migration 29, as the code of that time made it (the votes
 * moved, the duplicate hidden, nothing recorded), then migrated to the latest schema: what a server
 * upgraded over an older database finds.
 */
import type { SqlClient } from '../adapters/sql/client.ts';
import { migrate } from '../adapters/sql/migrate.ts';
import { MIGRATIONS } from '../adapters/sql/migrations.ts';

/** The merge of feature 102 (voters a, b) into feature 101 (voter b), ids above the example config's roadmap, by the statements of migration 26's code. */
const OLD_MERGE = [
  `insert into roadmap_features (id, title, description, category, visible, release_version) values
     (101, 'Lotus 1-2-3 import', '', 'formats', true, null), (102, 'WK1 files', '', 'formats', true, null)`,
  `insert into roadmap_votes (feature_id, voter_id) values (102, 'a'), (102, 'b'), (101, 'b')`,
  `insert into roadmap_votes (feature_id, voter_id, voted_at, network) select 101, voter_id, voted_at, network from roadmap_votes where feature_id = 102 on conflict do nothing`,
  `delete from roadmap_votes where feature_id = 102`,
  `update roadmap_features set vote_count = (select count(*) from roadmap_votes where feature_id = 101) where id = 101`,
  `update roadmap_features set visible = false, vote_count = 0, merged_into = 101 where id = 102`,
];

/** Migrates `client` to 26, merges the old way, and migrates to the latest schema. */
export async function withOldMerge(client: SqlClient): Promise<void> {
  await migrate(client, MIGRATIONS.filter((m) => m.version <= 26));
  for (const statement of OLD_MERGE) await client.query(statement);
  await migrate(client);
}
