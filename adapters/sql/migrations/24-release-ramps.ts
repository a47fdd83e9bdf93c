/**
 * Migration 24 (release autopilot, issue 36): release ramps.
 *
 * The ramp plan as {steps, everyMs, startAt} (core/releases/ramp-plan.ts), and the halt rule's hold.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const releaseRamps: Migration = {
  version: 24,
  name: 'release ramps',
  sql: `
alter table releases
  add column ramp jsonb,
  add column halted_at timestamptz,
  add column halt_reason text;
comment on column releases.ramp is 'ramp plan {steps: int[], everyMs, startAt (epoch ms)} or null; rollout_percent is its first step';
`,
};
