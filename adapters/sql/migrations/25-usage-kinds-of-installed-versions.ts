/**
 * Migration 25 (release autopilot, issue 36): usage kinds of installed versions.
 *
 * Two more kinds of usage counts: update checks by installed version, bug reports that count for a release.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const usageKindsOfInstalledVersions: Migration = {
  version: 25,
  name: 'usage kinds of installed versions',
  sql: `
alter table usage_counts drop constraint usage_counts_kind_check;
alter table usage_counts add constraint usage_counts_kind_check
  check (kind in ('download', 'update_check', 'installed', 'bug_report'));
`,
};
