/**
 * Migration 9: roadmap admin.
 *
 * Roadmap admin (core/operator/roadmap.ts): each feature keeps the config file's definition last applied
 * to it (null for a feature made through the operator API), so that a start applies only what the config
 * file changed; and a merged duplicate points at the feature its votes moved to. Features already stored
 * came from the config file as it is now.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const roadmapAdmin: Migration = {
  version: 9,
  name: 'roadmap admin',
  sql: `
alter table roadmap_features add column seeded jsonb;
alter table roadmap_features add column merged_into integer references roadmap_features (id);
update roadmap_features set seeded = jsonb_build_object('title', title, 'description', description,
  'category', category, 'visible', visible, 'release_version', release_version);
`,
};
