/**
 * Migration 2: batched vote toggles.
 *
 * Toggles in batches (group commit): one statement and one commit for every toggle that queued while
 * the previous batch ran. Each toggle runs toggle_roadmap_vote in order, so each still sees the ones
 * before it and answers the exact count after itself; the caller orders a batch by feature id so that
 * two instances lock feature rows in the same order.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const batchedVoteToggles: Migration = {
  version: 2,
  name: 'batched vote toggles',
  sql: `
create function toggle_roadmap_votes(p_features integer[], p_voters text[])
returns table (ord integer, now_voted boolean, new_count integer)
language plpgsql as $$
declare
  i integer;
begin
  for i in 1 .. coalesce(array_length(p_features, 1), 0) loop
    ord := i;
    select t.now_voted, t.new_count into now_voted, new_count from toggle_roadmap_vote(p_features[i], p_voters[i]) t;
    return next;
  end loop;
end
$$;
`,
};
