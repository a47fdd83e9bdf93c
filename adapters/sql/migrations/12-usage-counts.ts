/**
 * Migration 12: usage counts.
 *
 * Downloads and update checks by UTC day and bounded labels (core/budgets/usage.ts).
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const usageCounts: Migration = {
  version: 12,
  name: 'usage counts',
  sql: `
create table usage_counts (
  day integer not null,
  kind text not null check (kind in ('download', 'update_check')),
  release text not null,
  source text not null,
  platform text not null,
  count bigint not null,
  primary key (day, kind, release, source, platform)
);
comment on column usage_counts.day is 'UTC day: whole days since 1970-01-01';
`,
};
