/**
 * Usage counts (core/budgets/usage.ts) in memory: one number per day and label set, the sightings of
 * today and yesterday, and each release's bug reporters.
 *
 * @module
 */
import type { BugReporter, UsageCount, UsageStore } from '../../core/ports/usage-store.ts';

const keyOf = (c: Omit<UsageCount, 'count'>) => `${c.day}\u0000${c.kind}\u0000${c.release}\u0000${c.source}\u0000${c.platform}`;

export function createMemoryUsageStore(): UsageStore {
  const counts = new Map<string, UsageCount>();
  /** Sightings by day, each as "release NUL client hash". */
  const sightings = new Map<number, Set<string>>();
  /** Reporters by release and client hash. */
  const reporters = new Map<string, Map<string, { networkHash: string; firstAt: number; lastAt: number }>>();

  const add = (batch: readonly UsageCount[]) => {
    for (const c of batch) {
      const key = keyOf(c);
      const found = counts.get(key);
      if (found) found.count += c.count;
      else counts.set(key, { ...c });
    }
  };

  return {
    async add(batch) {
      add(batch);
    },
    async list(fromDay, toDay) {
      return [...counts.values()]
        .filter((c) => c.day >= fromDay && c.day <= toDay)
        .map((c) => ({ ...c }))
        .sort((a, b) => a.day - b.day || keyOf(a).localeCompare(keyOf(b)));
    },
    async addSightings(batch) {
      const fresh = batch.filter((s) => {
        let seen = sightings.get(s.day);
        if (seen === undefined) sightings.set(s.day, seen = new Set());
        const key = `${s.release}\u0000${s.clientHash}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      add(fresh.map((s) => ({ day: s.day, kind: 'installed', release: s.release, source: 'none', platform: s.platform, count: 1 })));
      const newest = Math.max(...sightings.keys());
      for (const day of sightings.keys()) if (day < newest - 1) sightings.delete(day);
      return fresh.map((s) => ({ ...s }));
    },
    async addReporter({ release, clientHash, networkHash, at }: BugReporter) {
      let byClient = reporters.get(release);
      if (byClient === undefined) reporters.set(release, byClient = new Map());
      const found = byClient.get(clientHash);
      if (found === undefined) {
        byClient.set(clientHash, { networkHash, firstAt: at, lastAt: at });
        return true;
      }
      found.firstAt = Math.min(found.firstAt, at);
      found.lastAt = Math.max(found.lastAt, at);
      return false;
    },
    async reporters(release, from, to, discountedBefore) {
      const networks = new Set<string>();
      const byClient = [...(reporters.get(release)?.values() ?? [])];
      const discounted = discountedBefore === undefined
        ? new Set<string>()
        : new Set(byClient.filter((r) => r.firstAt < discountedBefore).map((r) => r.networkHash));
      let clients = 0;
      for (const r of byClient) {
        if (r.firstAt > to || r.lastAt < from || discounted.has(r.networkHash)) continue;
        clients++;
        networks.add(r.networkHash);
      }
      return { clients, networks: networks.size };
    },
  };
}
