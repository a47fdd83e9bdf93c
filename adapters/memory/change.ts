/**
 * The unit of work in memory (core/ports/change.ts): changes run one at a time, and each store a change
 * touches keeps a snapshot of itself on first use, put back when the change throws. A memory store's
 * calls settle in microtasks, so no request is served between a change's read and its write.
 *
 * @module
 */
import type { ChangeStore, StorageChange } from '../../core/ports/change.ts';

/** A memory store that can go back: `snapshot()` keeps its state and answers what puts it back. */
export interface Restorable {
  snapshot(): () => void;
}

type Container = Map<unknown, unknown> | Set<unknown> | unknown[];

/** A value copied one level deep (a record's fields, a set's members): the stores replace nested values, never change them in place. */
const copied = (value: unknown): unknown => {
  if (value instanceof Set) return new Set(value);
  if (value instanceof Map) return new Map(value);
  if (Array.isArray(value)) return [...value];
  return value !== null && typeof value === 'object' ? { ...value } : value;
};

/**
 * Keeps maps, sets and arrays of records as they are now; the answer puts each back in place (the same
 * objects, so every holder of one sees it restored).
 */
export function keep(...containers: Container[]): () => void {
  const saved = containers.map((container) =>
    container instanceof Map ? [...container].map(([key, value]) => [key, copied(value)] as const) : [...container].map(copied)
  );
  return () => {
    containers.forEach((container, i) => {
      const entries = saved[i]!;
      if (container instanceof Map) {
        container.clear();
        for (const [key, value] of entries as (readonly [unknown, unknown])[]) container.set(key, value);
      } else if (container instanceof Set) {
        container.clear();
        for (const value of entries) container.add(value);
      } else container.splice(0, container.length, ...entries);
    });
  };
}

export type ChangeStores = { [K in Exclude<keyof StorageChange, 'lock'>]: StorageChange[K] & Restorable };

type Methods = Record<PropertyKey, unknown>;

/** Creates `Storage.change` over the memory stores. */
export function createMemoryChange(stores: ChangeStores): ChangeStore['change'] {
  let tail: Promise<unknown> = Promise.resolve();

  const run = async <T>(work: (tx: StorageChange) => Promise<T>): Promise<T> => {
    const restores: (() => void)[] = [];
    const touched = new Set<string>();
    /** The store as the change sees it: its first call keeps a snapshot. */
    const bound = (name: keyof ChangeStores): unknown =>
      new Proxy(stores[name] as unknown as Methods, {
        get(store, member) {
          const value = store[member];
          if (typeof value !== 'function' || member === 'snapshot') return value;
          return (...args: unknown[]) => {
            if (!touched.has(name)) {
              touched.add(name);
              restores.push(stores[name].snapshot());
            }
            return (value as (...a: unknown[]) => unknown).apply(store, args);
          };
        },
      });
    const tx = {
      releases: bound('releases'),
      features: bound('features'),
      inbox: bound('inbox'),
      orders: bound('orders'),
      outbox: bound('outbox'),
      audit: bound('audit'),
      mail: bound('mail'),
      links: bound('links'),
      shipping: bound('shipping'),
      checkouts: bound('checkouts'),
      // Changes run one at a time: holding a table is holding the turn.
      lock: async () => {},
    } as StorageChange;
    try {
      return await work(tx);
    } catch (error) {
      for (const restore of restores.reverse()) restore();
      throw error;
    }
  };

  return <T>(work: (tx: StorageChange) => Promise<T>): Promise<T> => {
    const result = tail.then(() => run(work));
    tail = result.catch(() => undefined);
    return result;
  };
}
