/**
 * Migration 30 (issue 42): the distinct clients behind the halt rule's figures. An install is a client
 * seen running a version on a day, once, however often it checks; a bug reporter is a client that
 * reported a bug in a release, once, with its network, so that one address, or many in one network,
 * counts once (docs/releases.md "The halt rule").
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const distinctInstallsAndBugReporters: Migration = {
  version: 30,
  name: 'distinct installs and bug reporters',
  sql: `
create table install_sightings (
  day integer not null,
  release text not null,
  client_hash text not null,
  primary key (day, release, client_hash)
);
comment on table install_sightings is 'one row per client, version and UTC day of an update check; kept for today and yesterday only (the usage counts hold the totals)';
comment on column install_sightings.client_hash is 'base64url HMAC-SHA-256 of the client key under the voter-secret; never an address';

create table bug_reporters (
  release text not null,
  client_hash text not null,
  network_hash text not null,
  first_at timestamptz not null,
  last_at timestamptz not null,
  primary key (release, client_hash)
);
comment on table bug_reporters is 'one row per client that reported a bug in a release (the halt rule counts these, not reports)';
comment on column bug_reporters.network_hash is 'base64url HMAC-SHA-256 of the client''s /24 (IPv4) or /48 (IPv6) under the voter-secret; never an address';
`,
};
