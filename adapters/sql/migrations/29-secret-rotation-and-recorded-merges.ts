/**
 * Migration 29 (issue 33, "A vendor's week"): an endpoint's previous secret while a rotation's grace period
 * lasts, and the votes a roadmap merge moved, so that the merge can be undone.
 *
 * Merges made before this migration recorded nothing: `merge_recorded` is false for them, and unmerging
 * one is refused (409 merge_not_recorded) rather than guessed.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const secretRotationAndRecordedMerges: Migration = {
  version: 29,
  name: 'secret rotation and recorded merges',
  sql: `
alter table webhook_endpoints
  add column previous_secret text,
  add column previous_secret_until timestamptz;

alter table roadmap_features add column merge_recorded boolean not null default false;

create table roadmap_merged_votes (
  feature_id integer not null references roadmap_features (id),
  voter_id text not null,
  voted_at timestamptz not null,
  network text,
  moved boolean not null,
  primary key (feature_id, voter_id)
);
comment on table roadmap_merged_votes is 'the votes of a merged duplicate (feature_id) as they were; moved: the voter had not voted for the target';
comment on column roadmap_merged_votes.network is 'base64url HMAC-SHA-256 of the IPv6 /48 under the voter-secret, or null; never an address';
`,
};
