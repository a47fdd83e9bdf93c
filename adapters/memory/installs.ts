/**
 * Installs by install id (core/ports/install-store.ts) in memory: one number per day, channel and release;
 * the pings of today and yesterday, and how many install ids each client had counted; each release's
 * reporting installs.
 *
 * @module
 */
import type { InstallCount, InstallStore } from '../../core/ports/install-store.ts';
import type { BugReporter } from '../../core/ports/usage-store.ts';

const NUL = '\u0000';

interface Reporter {
  networkHash: string;
  firstAt: number;
  lastAt: number;
}

export function createMemoryInstallStore(): InstallStore {
  const counts = new Map<string, InstallCount>();
  /** Per day: the pings kept ("release NUL install hash"), and the install ids counted per "release NUL client hash". */
  const days = new Map<number, { pings: Set<string>; perClient: Map<string, number> }>();
  const reporters = new Map<string, Map<string, Reporter>>();

  return {
    async addInstall({ day, channel, release, installHash, clientHash }, perClient) {
      let of = days.get(day);
      if (of === undefined) days.set(day, of = { pings: new Set(), perClient: new Map() });
      const ping = `${release}${NUL}${installHash}`;
      const client = `${release}${NUL}${clientHash}`;
      const counted = of.perClient.get(client) ?? 0;
      if (of.pings.has(ping) || counted >= perClient) return false;
      of.pings.add(ping);
      of.perClient.set(client, counted + 1);
      const key = `${day}${NUL}${channel}${NUL}${release}`;
      const found = counts.get(key);
      if (found) found.count++;
      else counts.set(key, { day, channel, release, count: 1 });
      const newest = Math.max(...days.keys());
      for (const kept of days.keys()) if (kept < newest - 1) days.delete(kept);
      return true;
    },
    async list(fromDay, toDay) {
      return [...counts.values()]
        .filter((c) => c.day >= fromDay && c.day <= toDay)
        .map((c) => ({ ...c }))
        .sort((a, b) =>
          a.day - b.day || (a.channel < b.channel ? -1 : a.channel > b.channel ? 1 : 0) || (a.release < b.release ? -1 : a.release > b.release ? 1 : 0)
        );
    },
    async addReporter({ release, clientHash, networkHash, at }: BugReporter) {
      let byInstall = reporters.get(release);
      if (byInstall === undefined) reporters.set(release, byInstall = new Map());
      const found = byInstall.get(clientHash);
      if (found === undefined) {
        byInstall.set(clientHash, { networkHash, firstAt: at, lastAt: at });
        return true;
      }
      found.firstAt = Math.min(found.firstAt, at);
      found.lastAt = Math.max(found.lastAt, at);
      return false;
    },
    async reporters(release, from, to, discountedBefore) {
      const all = [...(reporters.get(release)?.values() ?? [])];
      const discounted = new Set(discountedBefore === undefined ? [] : all.filter((r) => r.firstAt < discountedBefore).map((r) => r.networkHash));
      const networks = new Set<string>();
      let clients = 0;
      for (const r of all) {
        if (r.firstAt > to || r.lastAt < from || discounted.has(r.networkHash)) continue;
        clients++;
        networks.add(r.networkHash);
      }
      return { clients, networks: networks.size };
    },
  };
}
