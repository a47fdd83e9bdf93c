/**
 * Small bounded caches: a Map that forgets its oldest entry once it holds `limit` of them.
 *
 * @module
 */

/**
 * Stores `value` under `key`, first dropping the oldest entry when the cache is full.
 *
 * @returns The value, so that a lookup can end in `?? remember(cache, limit, key, build())`.
 */
export function remember<K, V>(cache: Map<K, V>, limit: number, key: K, value: V): V {
  if (cache.size >= limit) cache.delete(cache.keys().next().value as K);
  cache.set(key, value);
  return value;
}
