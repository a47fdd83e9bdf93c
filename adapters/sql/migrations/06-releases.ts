/**
 * Migration 6: releases.
 *
 * Desktop releases with staged rollout (core/releases/release-view.ts): what GET /version and GET /download serve,
 * changed while the service runs.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const releases: Migration = {
  version: 6,
  name: 'releases',
  sql: `
create table releases (
  version text primary key,
  msi_url text not null,
  notes_url text,
  rollout_percent integer not null check (rollout_percent between 0 and 100),
  published_at timestamptz not null,
  pulled_at timestamptz
);
create index releases_by_time on releases (published_at desc);
`,
};
