/**
 * The halt rule's figures of apps on the update files (issue 54, 55): counted by **install id**, never
 * mixed with the figures by address (docs/releases.md "Two kinds of installs"). Installs are the distinct
 * install ids a day that said they run a version (POST /api/v1/installs), reporting installs those whose
 * bug report carried their install id and counted for the release; parties are still networks. The rule
 * (halt-rule.ts) is the same, read over these figures on their own.
 *
 * @module
 */
import type { InstallCount, InstallStore } from '../ports/install-store.ts';
import type { UsageCount } from '../ports/usage-store.ts';
import type { HaltDecision, HaltFigures, HaltWindows } from './halt-rule.ts';

/** At most this many install ids of one client (an address) count for a version a day: install ids are free to mint. */
export const INSTALLS_PER_CLIENT = 10;

/** What a halt reason by install id starts with: the kind of its figures. */
export const BY_INSTALL_ID = 'Apps on the update files, counted by install id: ';

/** The keyed hash an install id is kept as: the voter id's keyed hash of it, apart from every address key. */
export const installHashOf = (clientHash: (key: string) => string, installId: string): string => clientHash(`install ${installId}`);

/** Install counts as the rule reads installs (`installed` rows: one a version and day, the channels summed). */
export function asInstalledRows(counts: readonly InstallCount[]): UsageCount[] {
  return counts.map(({ day, release, count }) => ({ day, kind: 'installed', release, source: 'none', platform: 'windows', count }));
}

/**
 * The figures by install id over the rule's windows.
 *
 * @param installs Where they are counted.
 * @param version The ramping release's version.
 * @param discountedBefore Its last resume, when it was resumed (networks that reported before count no more).
 */
export async function installIdFigures(
  installs: InstallStore,
  version: string,
  windows: HaltWindows,
  days: { fromDay: number; toDay: number },
  discountedBefore: number | null,
): Promise<HaltFigures> {
  const [counts, mine, before] = await Promise.all([
    installs.list(days.fromDay, days.toDay),
    installs.reporters(version, windows.mine.from, windows.mine.to, discountedBefore ?? undefined),
    installs.reporters(windows.before.version, windows.before.from, windows.before.to),
  ]);
  return { usage: asInstalledRows(counts), mine, before };
}

/** A decision over the figures by install id, its reason saying so. */
export const byInstallId = (decision: HaltDecision): HaltDecision => ({ ...decision, reason: `${BY_INSTALL_ID}${decision.reason}` });
