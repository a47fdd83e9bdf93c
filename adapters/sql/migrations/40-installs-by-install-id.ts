/**
 * Migration 40 (issue 55): the installs of apps on the update files, counted by install id
 * (core/ports/install-store.ts), apart from the v1 counts by address (migrations 12 and 30). A ping is
 * kept once per version, install id and UTC day, and counted only while its client (address) has had
 * fewer than the cap counted that day; pings and the per-client tallies are kept for today and yesterday
 * only (the counts hold the totals). A reporting install is kept once per release, with its network.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const installsByInstallId: Migration = {
  version: 40,
  name: 'installs by install id',
  sql: `
create table install_counts (
  day integer not null,
  channel text not null,
  release text not null,
  count bigint not null,
  primary key (day, channel, release)
);
comment on table install_counts is 'distinct install ids a UTC day that said they run a version (POST /api/v1/installs), by the channel of their first ping that day';

create table install_pings (
  day integer not null,
  release text not null,
  install_hash text not null,
  primary key (day, release, install_hash)
);
comment on table install_pings is 'one row per install id, version and UTC day counted; kept for today and yesterday only';
comment on column install_pings.install_hash is 'base64url HMAC-SHA-256 of the install id under the voter-secret; never the id';

create table install_clients (
  day integer not null,
  release text not null,
  client_hash text not null,
  installs integer not null,
  primary key (day, release, client_hash)
);
comment on table install_clients is 'how many install ids of a client (address) were counted for a version on a UTC day, up to the cap; kept for today and yesterday only';
comment on column install_clients.client_hash is 'base64url HMAC-SHA-256 of the client key under the voter-secret; never an address';

create table install_reporters (
  release text not null,
  install_hash text not null,
  network_hash text not null,
  first_at timestamptz not null,
  last_at timestamptz not null,
  primary key (release, install_hash)
);
comment on table install_reporters is 'one row per install that reported a bug in a release from a report carrying its install id (the halt rule counts these by install id)';
comment on column install_reporters.network_hash is 'base64url HMAC-SHA-256 of the reporting client''s network (its party) under the voter-secret; never an address';
`,
};
