/**
 * Migration 23 (issue 35): POST /api/v1/licenses/validate finds a key's order by the key as issued
 * (adapters/sql/orders.ts ofLicenseKey). Indexes on the columns that already hold the keys: nothing new is
 * stored. Hash indexes: only equality is asked, and a 143-character key makes a large b-tree entry.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const licenseKeyLookup: Migration = {
  version: 23,
  name: 'license key lookup',
  sql: `
create index licenses_standard_key on licenses using hash (standard_key);
create index licenses_plus_key on licenses using hash (plus_key);
`,
};
