/**
 * Migration 32 (issue 42): the last ramp step of each release announced by a release.rolled_out event, so
 * that each step a plan reaches is announced once, by whichever instance notices it first (a conditional
 * update, core/releases/ramp-announcements.ts).
 *
 * A release ramping when the migration runs starts at the step in force then (by the database's clock,
 * held at its halt), so an upgrade announces no step reached before it: months-old plans at their last
 * step send nothing.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const announcedRampSteps: Migration = {
  version: 32,
  name: 'announced ramp steps',
  sql: `
alter table releases add column announced_step integer not null default 0 check (announced_step >= 0);
update releases set announced_step = least(
  jsonb_array_length(ramp->'steps') - 1,
  greatest(0, floor((extract(epoch from least(now(), halted_at)) * 1000 - (ramp->>'startAt')::float8) / (ramp->>'everyMs')::float8))
)::int
where ramp is not null;
comment on column releases.announced_step is 'the last ramp step (from 0) announced by a release.rolled_out event; 0 at publish';
`,
};
