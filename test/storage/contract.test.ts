/**
 * ONE storage contract, the same assertions run against memory, PGlite and Postgres (DATABASE_URL, or
 * PGlite over the wire protocol when it is unset). Each test gets a fresh storage.
 */
import { suite } from 'uvu';
import { ALL_TARGETS } from './_targets.ts';
import { auditContract } from './contract/audit.ts';
import { auditTrailContract } from './contract/audit-trail.ts';
import { budgetsContract } from './contract/budgets.ts';
import { checkoutContract } from './contract/checkout.ts';
import type { ContractContext } from './contract/context.ts';
import { rateLimitContract } from './contract/rate-limits.ts';
import { inboxContract } from './contract/inbox.ts';
import { ordersContract } from './contract/orders.ts';
import { recordsContract } from './contract/records.ts';
import { releasesContract } from './contract/releases.ts';
import { roadmapContract } from './contract/roadmap.ts';
import { roadmapAdminContract } from './contract/roadmap-admin.ts';
import { roadmapUnmergeContract } from './contract/roadmap-unmerge.ts';
import { outboxContract } from './contract/outbox.ts';
import { outboxAdminContract } from './contract/outbox-admin.ts';
import { mailContract } from './contract/mail.ts';
import { usageContract } from './contract/usage.ts';
import { closeTestDatabases } from '../_databases.ts';

for (const target of ALL_TARGETS) {
  const test = suite<ContractContext>(`storage contract: ${target.name}`, { open: null });
  test.before.each(async (context) => {
    context.open = await target.open();
  });
  test.after.each(async (context) => {
    await context.open?.close();
    context.open = null;
  });
  recordsContract(test);
  roadmapContract(test);
  roadmapAdminContract(test);
  roadmapUnmergeContract(test);
  checkoutContract(test);
  rateLimitContract(test);
  releasesContract(test);
  inboxContract(test);
  outboxContract(test);
  outboxAdminContract(test);
  mailContract(test);
  usageContract(test);
  budgetsContract(test);
  ordersContract(test);
  auditContract(test);
  auditTrailContract(test);
  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
