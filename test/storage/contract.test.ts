/**
 * ONE storage contract, the same assertions run against memory, PGlite and Postgres (DATABASE_URL, or
 * PGlite over the wire protocol when it is unset): the published one (`converter-site-api/storage-
 * conformance`, adapters/storage-conformance/), and this repository's export of the records. Each test
 * gets a fresh storage.
 */
import { suite } from 'uvu';
import { runStorageConformance } from '../../adapters/storage-conformance/index.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { ALL_TARGETS, type OpenStorage } from './_targets.ts';
import type { ContractContext } from './contract/context.ts';
import { exportSourceContract } from './contract/export-source.ts';
import { closeTestDatabases } from '../_databases.ts';

for (const target of ALL_TARGETS) {
  const test = suite<ContractContext>(`storage contract: ${target.name}`, { open: null });
  const opened = new WeakMap<Storage, OpenStorage>();
  const openOf = (storage: Storage) => opened.get(storage)!;
  runStorageConformance({
    test,
    create: async () => {
      const open = await target.open();
      opened.set(open.storage, open);
      return open.storage;
    },
    destroy: (storage) => openOf(storage).close(),
    endRateLimitWindows: (storage) => openOf(storage).endWindows(),
  });
  // The export's cases use the uvu context: a fresh storage each.
  const exports = suite<ContractContext>(`storage export: ${target.name}`, { open: null });
  exports.before.each(async (context) => {
    context.open = await target.open();
  });
  exports.after.each(async (context) => {
    await context.open?.close();
    context.open = null;
  });
  exportSourceContract(exports);
  test.run();
  // Each storage's suites close the test databases they opened (the next one opens them again).
  exports.after(closeTestDatabases);
  exports.run();
}
