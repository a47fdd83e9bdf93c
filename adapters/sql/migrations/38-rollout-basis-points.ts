/**
 * Migration 38 (issue 54): rollouts in basis points.
 *
 * A rollout was a whole percent; the update files' cohorts take hundredths of a percent (50 is 0.5 %), so the
 * stored rollout and each ramp plan's steps become basis points (0-10000), each old value times 100. The
 * column is renamed rather than kept beside a new one: an instance of before this migration then fails its
 * reads of the releases loudly (the column it names is gone) instead of serving a hundredth of a rollout.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const rolloutBasisPoints: Migration = {
  version: 38,
  name: 'rollout basis points',
  sql: `
alter table releases drop constraint releases_rollout_percent_check;
alter table releases rename column rollout_percent to rollout_basis_points;
update releases set
  rollout_basis_points = rollout_basis_points * 100,
  ramp = case when ramp is null then null else (ramp - 'steps') || jsonb_build_object('basisPoints', (
    select coalesce(jsonb_agg(round(step.value::text::numeric * 100)::int order by step.position), '[]'::jsonb)
    from jsonb_array_elements(ramp -> 'steps') with ordinality as step(value, position)
  )) end;
alter table releases add constraint releases_rollout_basis_points_check check (rollout_basis_points between 0 and 10000);
comment on column releases.rollout_basis_points is 'share of clients offered the release or a newer one, in basis points (0-10000); /version checks round it down to a whole percent';
comment on column releases.ramp is 'ramp plan {basisPoints: int[], everyMs, startAt (epoch ms)} or null; rollout_basis_points is its first step';
`,
};
