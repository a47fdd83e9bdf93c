/**
 * Migration 19 (issue 31): each release's installer digest and size (the update answers carry them in a
 * signed header) and whether it is critical. Releases stored before keep null: their answers say nothing
 * of the installer.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const releaseIntegrity: Migration = {
  version: 19,
  name: 'release integrity',
  sql: `
alter table releases
  add column sha256 text check (sha256 ~ '^[0-9a-f]{64}$'),
  add column size bigint check (size >= 0),
  add column critical boolean not null default false;
`,
};
