/**
 * Migration 41 (issue 56): the update window each key was sold with.
 *
 * A key covers the releases published up to its issue day plus the window its SKU sold (core/licensing/
 * update-window.ts); the window is kept with the key at purchase, so a later change of the config changes
 * only later sales. Null is lifetime: every key issued before this migration keeps covering every release.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const updateWindows: Migration = {
  version: 41,
  name: 'update windows',
  sql: `
alter table licenses add column standard_updates_days integer check (standard_updates_days between 1 and 36500);
alter table licenses add column plus_updates_days integer check (plus_updates_days between 1 and 36500);
comment on column licenses.standard_updates_days is 'days of updates the standard key was sold with, from its issue day; null: lifetime (every key issued before migration 41)';
comment on column licenses.plus_updates_days is 'days of updates the plus key was sold with, from its issue day; null: lifetime (every key issued before migration 41)';
`,
};
