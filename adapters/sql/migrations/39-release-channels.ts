/**
 * Migration 39 (issue 55): release channels.
 *
 * The channel a release is on (core/releases/channels.ts): the most stable it was published or promoted
 * to. Every release stored before is on `stable`, where it was served.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const releaseChannels: Migration = {
  version: 39,
  name: 'release channels',
  sql: `
alter table releases add column channel text not null default 'stable';
comment on column releases.channel is 'the channel the release is on: the most stable it was published or promoted to (core/releases/channels.ts)';
`,
};
