/**
 * Usage counts (core/budgets/usage.ts) in memory: one number per day and label set.
 *
 * @module
 */
import type { UsageCount, UsageStore } from '../../core/budgets/usage.ts';

const keyOf = (c: Omit<UsageCount, 'count'>) => `${c.day}\u0000${c.kind}\u0000${c.release}\u0000${c.source}\u0000${c.platform}`;

export function createMemoryUsageStore(): UsageStore {
  const counts = new Map<string, UsageCount>();
  return {
    async add(batch) {
      for (const c of batch) {
        const key = keyOf(c);
        const found = counts.get(key);
        if (found) found.count += c.count;
        else counts.set(key, { ...c });
      }
    },
    async list(fromDay, toDay) {
      return [...counts.values()]
        .filter((c) => c.day >= fromDay && c.day <= toDay)
        .map((c) => ({ ...c }))
        .sort((a, b) => a.day - b.day || keyOf(a).localeCompare(keyOf(b)));
    },
  };
}
