/**
 * Migration 15: order amounts.
 *
 * What an order paid (issue 21, revenue): the amount in the major unit and the ISO 4217 currency.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const orderAmounts: Migration = {
  version: 15,
  name: 'order amounts',
  sql: `
alter table checkout_sessions add column amount numeric;
alter table checkout_sessions add column currency text;
`,
};
