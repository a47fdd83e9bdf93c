/**
 * The storage contract (`converter-site-api/storage-conformance`) runs under Deno's own test runner, each
 * case a `Deno.test`, against the memory storage: the suite needs no Node API and no test library.
 */
import { createMemoryStorage } from 'converter-site-api/memory';
import { runStorageConformance } from 'converter-site-api/storage-conformance';

const DAY_MS = 24 * 60 * 60 * 1000;
const clocks = new WeakMap<object, { ms: number }>();

runStorageConformance({
  test: Deno.test,
  create: () => {
    const clock = { ms: Date.UTC(2026, 0, 1), now: () => clock.ms };
    const storage = createMemoryStorage({ clock });
    clocks.set(storage, clock);
    return storage;
  },
  endRateLimitWindows: (storage) => {
    clocks.get(storage)!.ms += DAY_MS;
  },
});
