/**
 * Migrations 24 and 25 (release autopilot, issue 36): a release's ramp plan and halt, and the usage
 * counts of installed versions and of the bug reports that count for a release.
 *
 * @module
 */

/** The ramp plan as {steps, everyMs, startAt} (core/releases/ramp-plan.ts), and the halt rule's hold. */
export const releaseRamps = `
alter table releases
  add column ramp jsonb,
  add column halted_at timestamptz,
  add column halt_reason text;
comment on column releases.ramp is 'ramp plan {steps: int[], everyMs, startAt (epoch ms)} or null; rollout_percent is its first step';
`;

/** Two more kinds of usage counts: update checks by installed version, bug reports that count for a release. */
export const usageKinds = `
alter table usage_counts drop constraint usage_counts_kind_check;
alter table usage_counts add constraint usage_counts_kind_check
  check (kind in ('download', 'update_check', 'installed', 'bug_report'));
`;
