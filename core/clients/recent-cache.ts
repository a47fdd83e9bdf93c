/**
 * The one bounded cache of the project: recent entries in two generations. Once the current generation
 * holds `limit` entries it becomes the older one and the one before is dropped whole; a hit in the older
 * generation moves the entry back to the current one. At most 2 x `limit` entries are held.
 *
 * Dropping a whole generation instead of the oldest entry one by one: V8 skips a Map's deleted head
 * entries on every `keys().next()`, which made each miss cost ~50 µs under a flood of distinct keys.
 *
 * @module
 */

export interface RecentCache<K, V> {
  get(key: K): V | undefined;
  /** Stores a value and returns it, so that a lookup can end in `?? cache.set(key, build())`. */
  set(key: K, value: V): V;
  delete(key: K): void;
}

/** Creates a cache of at most 2 x `limit` recent entries. */
export function createRecentCache<K, V>(limit: number): RecentCache<K, V> {
  let recent = new Map<K, V>();
  let older = new Map<K, V>();
  const cache: RecentCache<K, V> = {
    get(key) {
      const value = recent.get(key);
      if (value !== undefined) return value;
      const old = older.get(key);
      if (old === undefined) return undefined;
      older.delete(key);
      return cache.set(key, old);
    },
    set(key, value) {
      if (recent.size >= limit && !recent.has(key)) {
        older = recent;
        recent = new Map();
      }
      recent.set(key, value);
      return value;
    },
    delete(key) {
      recent.delete(key);
      older.delete(key);
    },
  };
  return cache;
}
