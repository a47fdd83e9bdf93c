/**
 * Migration 37 (issue 54): the signed update files of each channel (core/ports/update-files.ts), TUF
 * metadata stored once per channel, role and version so that every instance serves the same bytes. The
 * primary key keeps a second file of one version out (the insert that loses a race stores nothing), and
 * serves a role's newest (the highest version) and a channel's list.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const updateFiles: Migration = {
  version: 37,
  name: 'update files',
  sql: `
create table update_files (
  channel text not null,
  role text not null check (role in ('root', 'timestamp', 'snapshot', 'targets')),
  version integer not null check (version > 0),
  text text not null,
  stored_at timestamptz not null,
  expires_at timestamptz not null,
  primary key (channel, role, version)
);
comment on table update_files is 'the signed TUF metadata of each update channel, one row per role and version, never replaced: a new file has the next version';
comment on column update_files.text is 'the file exactly as served: the canonical JSON of {signed, signatures}';
comment on column update_files.expires_at is 'the TUF expires of its signed part, read when stored';
`,
};
