/**
 * Migration 33 (issue 46): when each release reached every client (core/releases/shipped.ts), the date of
 * its changelog entry. Written once by the first instance to see the release at 100 % (first insert wins);
 * a pull and a restore keep it.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const releasesReachedEveryone: Migration = {
  version: 33,
  name: 'releases reached everyone',
  sql: `
create table releases_reached_everyone (
  version text primary key,
  reached_at timestamptz not null
);
comment on table releases_reached_everyone is 'when each release was first live for every client (100 %, not pulled): the changelog''s dates';
`,
};
