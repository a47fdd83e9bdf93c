/**
 * The storage contract, `converter-site-api/storage-conformance`: the cases every `Storage` passes (the
 * memory, PGlite and PostgreSQL storages of this package run them in its own tests), for an embedder's
 * own storage. Test-runner neutral: hand it your runner's `test(name, fn)` (uvu, node:test, vitest, Deno,
 * Bun), or take the cases as a list. It imports nothing but the package's own code. See docs/storage.md.
 *
 * @module
 */
import type { Storage } from '../../core/ports/ports.ts';
import type { ContractContext, ContractSuite } from './context.ts';
import { auditContract } from './audit.ts';
import { auditTrailContract } from './audit-trail.ts';
import { budgetsContract } from './budgets.ts';
import { changeContract } from './change.ts';
import { checkoutContract } from './checkout.ts';
import { inboxContract } from './inbox.ts';
import { mailContract } from './mail.ts';
import { ordersContract } from './orders.ts';
import { outboxContract } from './outbox.ts';
import { outboxAdminContract } from './outbox-admin.ts';
import { rateLimitContract } from './rate-limits.ts';
import { releasesContract } from './releases.ts';
import { roadmapContract } from './roadmap.ts';
import { roadmapAdminContract } from './roadmap-admin.ts';
import { roadmapChangeContract } from './roadmap-change.ts';
import { roadmapUnmergeContract } from './roadmap-unmerge.ts';
import { secretsContract } from './secrets.ts';
import { requestersToldContract, shippingContract } from './shipping.ts';
import { linksContract } from './links.ts';
import { usageContract } from './usage.ts';
import { installsContract } from './installs.ts';
import { updateFilesContract } from './update-files.ts';

export { AssertionError } from './assert.ts';

/** The parts of the contract, by the name that starts each of their cases' names. */
const PARTS: readonly (readonly [string, (test: ContractSuite) => void])[] = [
  ['secrets', secretsContract],
  ['roadmap', roadmapContract],
  ['roadmap admin', roadmapAdminContract],
  ['roadmap unmerge', roadmapUnmergeContract],
  ['roadmap change', roadmapChangeContract],
  ['checkout', checkoutContract],
  ['rate limits', rateLimitContract],
  ['releases', releasesContract],
  ['inbox', inboxContract],
  ['outbox', outboxContract],
  ['outbox admin', outboxAdminContract],
  ['mail', mailContract],
  ['usage', usageContract],
  ['installs', installsContract],
  ['budgets', budgetsContract],
  ['orders', ordersContract],
  ['audit', auditContract],
  ['audit trail', auditTrailContract],
  ['shipping', shippingContract],
  ['links', linksContract],
  ['requesters told', requestersToldContract],
  ['update files', updateFilesContract],
  ['change', changeContract],
];

/** The storage under test: how to make one for a case and how to let it go. */
export interface StorageConformanceTarget<S extends Storage = Storage> {
  /** A fresh, empty storage; called once per case. */
  create(): S | Promise<S>;
  /** Lets a case's storage go (closes it, drops its schema) once the case ends, passed or not. Default: `storage.close?.()`. */
  destroy?(storage: S): void | Promise<void>;
  /**
   * Ends every rate-limit window of `storage` now (advance the clock the storage's counters read, or age
   * their rows). Without it, the one case that needs it is left out.
   */
  endRateLimitWindows?(storage: S): void | Promise<void>;
}

/** One case of the contract: its name (`<part>: <what it checks>`) and a run that rejects when the storage fails it. */
export interface StorageConformanceCase {
  readonly name: string;
  run(): Promise<void>;
}

/** A test runner's `test(name, fn)`: uvu's `test` or a `suite(...)`, node:test's `test`, vitest's `test` or `it`, `Deno.test`. */
export type RegisterTest = (name: string, fn: () => Promise<void>) => unknown;

/** What a storage that fails a case throws: the case's name first, then what the check found. */
export class StorageConformanceError extends Error {
  override readonly name = 'StorageConformanceError';
  /** The name of the case that failed. */
  readonly case: string;

  constructor(name: string, cause: unknown) {
    super(`storage conformance: "${name}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.case = name;
  }
}

/**
 * The cases of the contract, each running on a storage of its own: `create` before it, `destroy` after.
 *
 * @returns The cases in a stable order; names are unique.
 */
export function storageConformanceCases<S extends Storage>(target: StorageConformanceTarget<S>): StorageConformanceCase[] {
  const cases: StorageConformanceCase[] = [];
  for (const [part, declare] of PARTS) {
    const declareCase = (name: string, body: (context: ContractContext) => Promise<void>): void => {
      const full = `${part}: ${name}`;
      cases.push({ name: full, run: () => runCase(target, full, body) });
    };
    const test: ContractSuite = Object.assign(declareCase, { canEndWindows: target.endRateLimitWindows !== undefined });
    declare(test);
  }
  return cases;
}

async function runCase<S extends Storage>(target: StorageConformanceTarget<S>, name: string, body: (context: ContractContext) => Promise<void>): Promise<void> {
  const storage = await target.create();
  let failure: StorageConformanceError | null = null;
  try {
    await body({
      storage,
      endWindows: async () => {
        await target.endRateLimitWindows?.(storage);
      },
    });
  } catch (error) {
    failure = new StorageConformanceError(name, error);
  }
  try {
    await (target.destroy ? target.destroy(storage) : storage.close?.());
  } catch (error) {
    failure ??= new StorageConformanceError(name, error);
  }
  if (failure) throw failure;
}

/**
 * Registers every case of the contract with a test runner, each on a fresh storage.
 *
 * @example
 * import { test } from 'node:test';
 * runStorageConformance({ test, create: () => createMemoryStorage() });
 */
export function runStorageConformance<S extends Storage>(options: StorageConformanceTarget<S> & { test: RegisterTest }): void {
  for (const { name, run } of storageConformanceCases(options)) options.test(name, run);
}
