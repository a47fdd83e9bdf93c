/**
 * The storage contract holds the rule it checks. A storage whose change keeps a snapshot of everything it
 * held when the change began and puts it back when the change throws (what a storage written from
 * docs/storage.md might do, and what the memory storage's whole-store snapshots did before its undo log)
 * loses what was written outside the change meanwhile. The contract fails it on the one case that checks
 * that, with a message naming the rule, and passes it on every other case.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage, type MemoryStorage } from '../../adapters/memory/index.ts';
import { storageConformanceCases } from '../../adapters/storage-conformance/index.ts';
import type { Storage, StorageChange } from '../../core/storage.ts';

type Methods = Record<PropertyKey, (...args: unknown[]) => unknown>;
/** One call as it was made, to make again on a fresh storage. */
type Call = (storage: MemoryStorage) => Promise<unknown>;

/** Random ids made from a counter while `work` runs, so that making the same calls again makes the same ids. */
async function countedIds<T>(work: (ids: { count: number }) => Promise<T>): Promise<T> {
  const random = crypto.randomUUID;
  const ids = { count: 0 };
  crypto.randomUUID = () => `00000000-0000-4000-8000-${String(++ids.count).padStart(12, '0')}`;
  try {
    return await work(ids);
  } finally {
    crypto.randomUUID = random;
  }
}

/**
 * A memory storage whose change restores a whole-state snapshot on throw: the snapshot is every call made
 * so far, and restoring it makes them again on a fresh memory storage (so it is the state as it was when
 * the change began, whatever was written since, by the change or beside it).
 */
function wholeSnapshotStorage(ids: { count: number }): Storage {
  const firstId = ids.count;
  let inner = createMemoryStorage();
  let calls: Call[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  /** A store whose every call is made on the current storage and kept; `replay` makes it again. */
  const store = (of: () => Methods, replay: (method: PropertyKey, args: unknown[]) => Call) =>
    new Proxy({} as Methods, {
      get: (_, method) => (...args: unknown[]) => {
        calls.push(replay(method, args));
        return of()[method]!(...args);
      },
    });
  const names = Object.entries(inner).filter(([, member]) => typeof member === 'object' && !Array.isArray(member)).map(([name]) => name);
  const stores = Object.fromEntries(names.map((name) => [
    name,
    store(
      () => (inner as unknown as Record<string, Methods>)[name]!,
      (method, args) => async (s) => (s as unknown as Record<string, Methods>)[name]![method]!(...args),
    ),
  ]));
  const run = async <T>(work: (tx: StorageChange) => Promise<T>): Promise<T> => {
    const snapshot = [...calls];
    try {
      return await inner.change((tx) => {
        const inChange = (name: string) =>
          store(
            () => (tx as unknown as Record<string, Methods>)[name]!,
            (method, args) => (s) => s.change(async (again) => (again as unknown as Record<string, Methods>)[name]![method]!(...args)),
          );
        return work(
          { ...Object.fromEntries(Object.keys(tx).filter((name) => name !== 'lock').map((name) => [name, inChange(name)])), lock: tx.lock } as StorageChange,
        );
      });
    } catch (error) {
      const restored = createMemoryStorage();
      ids.count = firstId;
      for (const call of snapshot) await call(restored);
      [inner, calls] = [restored, snapshot];
      throw error;
    }
  };
  return {
    ...stores,
    secret: (name: string, create: () => string | Promise<string>) => inner.secret(name, create),
    ping: () => inner.ping(),
    change<T>(work: (tx: StorageChange) => Promise<T>): Promise<T> {
      const result = tail.then(() => run(work));
      tail = result.catch(() => undefined);
      return result;
    },
  } as unknown as Storage;
}

test('a storage that puts back a whole-state snapshot fails the contract on the rule, and only there', async () => {
  const failed: string[] = [];
  const cases = await countedIds(async (ids) => {
    const all = storageConformanceCases({ create: () => wholeSnapshotStorage(ids) });
    for (const c of all) await c.run().catch((error: Error) => failed.push(error.message));
    return all;
  });
  assert.is(failed.length, 1, failed.join('\n'));
  assert.match(
    failed[0]!,
    'storage conformance: "change: a change that throws undoes only its own writes: a feedback entry and its event written while it waited stay" failed: a change that throws undoes only its own writes; writes made outside it meanwhile stay: the feedback written meanwhile stays, the mark goes',
  );
  const withHook = storageConformanceCases({ create: () => createMemoryStorage(), endRateLimitWindows: () => {} }).length;
  assert.is(cases.length, withHook - 1, 'every case ran but the one that ends rate-limit windows (no hook given)');
});

test('the memory storage passes that case: its change undoes its own writes only', async () => {
  const [rule] = storageConformanceCases({ create: () => createMemoryStorage() }).filter((c) => c.name.startsWith('change: a change that throws undoes only'));
  await rule!.run();
});

test.run();
