/**
 * Who runs which version, and the halt rule at work (docs/releases.md): an update check's User-Agent
 * product token (`LegacySheetConverter/2.4.1`) is counted by installed version, by name only for a
 * version this server knows (`other` otherwise, `none` without the token), once per client and day; a
 * bug report counts for a release only when its client could run it, once per client (with its network),
 * and one that counts for a ramping release has the halt rule decide at once, from the counts and the clock.
 * A bug report carrying an install id (an app on the update files) counts by install id instead, when the
 * install's cohort bucket was in the release's ramp (install-figures.ts); the rule decides on each kind's
 * figures on its own, and halts when either kind's would.
 *
 * @module
 */
import type { CoreRequest } from '../http/http.ts';
import { clientKeyOf } from '../clients/client-ip.ts';
import { reportParty } from '../clients/party.ts';
import type { UsageTally } from '../budgets/usage.ts';
import type { Clock, FeedbackEntry, Logger, Storage } from '../ports/ports.ts';
import type { Release } from '../ports/store-ports.ts';
import { type CommittedChanges, recordChange } from '../ports/change.ts';
import { daysRead, decideHalt, type HaltRule, haltWindows, previousOf, resumedAt } from './halt-rule.ts';
import { byInstallId, installHashOf, installIdFigures } from './install-figures.ts';
import { isRamping, rolloutInForce } from './ramp-plan.ts';
import { percentOf } from './release-json.ts';
import { wholePercent } from './rollout-rule.ts';
import { releasesOn } from './channels.ts';
import type { ReleaseView } from './release-view.ts';

/** The product name of the desktop app's User-Agent token by default. */
export const DEFAULT_USER_AGENT_PRODUCT = 'LegacySheetConverter';

export interface ReleaseWatch {
  /** The label an update check is counted under: the installed version when known, `other`, or `none`. */
  installedLabel(userAgent: string | undefined): string;
  /**
   * Counts a stored bug report for the release its client could run, and halts a ramp past the rule. With
   * `installId` (an app on the update files), it counts by install id, when that install could run it.
   */
  reportStored(request: CoreRequest, entry: FeedbackEntry, windows: boolean, installId?: string): Promise<void>;
}

export interface ReleaseWatchPorts {
  releases: ReleaseView;
  storage: Storage;
  /** Opens the halt's change (core/ports/change.ts). */
  changes: Pick<CommittedChanges, 'change'>;
  usage: UsageTally;
  clock: Clock;
  logger: Logger;
  rolloutBucket(clientKey: string): number;
  /** The keyed hash clients and networks are stored as (the voter id). */
  clientHash(key: string): string;
  /**
   * Whether an install's cohort bucket (core/tuf/cohort.ts, the line's seed) is in a release's ramp at
   * `now`: the app on the update files could run it. None: reports by install id count nothing.
   */
  installInRamp?(release: Release, installId: string, now: number): Promise<boolean>;
  /** The release channels, the most stable first: a release is compared with the release before it on its channel. */
  channels: readonly string[];
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The event a halt sends (release.halted): the release, the step it holds at and the figures. */
export function haltedEventData(release: Release, now: number): Record<string, unknown> {
  return {
    version: release.version,
    rolloutBasisPoints: rolloutInForce(release, now),
    rolloutPercent: percentOf(rolloutInForce(release, now)),
    haltedAt: release.haltedAt === null ? null : new Date(release.haltedAt).toISOString(),
    haltReason: release.haltReason,
  };
}

export function createReleaseWatch(ports: ReleaseWatchPorts, product: string, rule: HaltRule): ReleaseWatch {
  // The product token's version, whatever it is: a known version is counted by name, anything else as other.
  const token = new RegExp(`(?:^|[\\s(])${escapeRegex(product)}/([^\\s()]+)`);
  const { releases, storage, usage, clock, logger } = ports;

  /** Has the rule decide for a ramping release; halts it (once, whichever instance decides first) past the rule. */
  const decide = async (release: Release, requestId: string): Promise<void> => {
    const now = clock.now();
    const known = releases.known();
    // The release before on its own channel: a beta is compared with the beta or stable release below it.
    const previous = previousOf(release, releasesOn(ports.channels, release.channel, known));
    const baseline = await releases.baseline();
    // This instance's counts first, so that the report just counted is among them.
    await usage.flush();
    const windows = haltWindows(release, previous, baseline.version, now);
    const { fromDay, toDay } = daysRead(windows);
    const read = {
      usage: await storage.usage.list(fromDay, toDay),
      // After a resume, the networks that reported before it count no more (docs/releases.md).
      mine: await storage.usage.reporters(release.version, windows.mine.from, windows.mine.to, resumedAt(release) ?? undefined),
      before: await storage.usage.reporters(windows.before.version, windows.before.from, windows.before.to),
    };
    // Each kind of figures on its own (never mixed in one rate): by address, then by install id.
    const byId = await installIdFigures(storage.installs, release.version, windows, { fromDay, toDay }, resumedAt(release));
    const decision = [decideHalt(release, windows, read, rule), byInstallId(decideHalt(release, windows, byId, rule))].find((d) => d.halt);
    if (decision === undefined) return;
    // The event and the audit entry are written with the halt, by the one instance whose halt applies.
    const audit = { at: now, action: 'release.halted', target: decision.reason, requestId, actor: null };
    const halted = await ports.changes.change(async (tx) => {
      const held = await tx.releases.haltRelease(release.version, now, decision.reason);
      if (held) await recordChange(tx, { at: now, event: { type: 'release.halted', data: haltedEventData(held, now) }, audit });
      return held;
    });
    if (!halted) return;
    logger.warn('release halted', { version: release.version, reason: decision.reason, requestId });
    await releases.refresh();
  };

  return {
    installedLabel(userAgent) {
      const version = userAgent === undefined ? undefined : token.exec(userAgent)?.[1];
      if (version === undefined) return 'none';
      return releases.isKnown(version) ? version : 'other';
    },
    async reportStored(request, entry, windows, installId) {
      if (entry.type !== 'bug_report' || entry.appVersion === null) return;
      const now = clock.now();
      const platform = windows ? 'windows' : 'other';
      /** Records the reporting client (once per release) and counts its first report; by install id when it has one. */
      const reporter = async (version: string) => {
        // A party (core/clients/party.ts): an address carrying an IPv4 one counts as that IPv4.
        const party = reportParty(request.clientIp);
        const networkHash = ports.clientHash(party.network);
        if (installId !== undefined) {
          await storage.installs.addReporter({ release: version, clientHash: installHashOf(ports.clientHash, installId), networkHash, at: now });
          return;
        }
        const clientHash = ports.clientHash(party.client);
        if (await storage.usage.addReporter({ release: version, clientHash, networkHash, at: now })) usage.count('bug_report', version, null, platform);
      };
      const release = releases.known().find((r) => r.version === entry.appVersion && r.pulledAt === null);
      if (release === undefined) {
        // The baseline ran everywhere before any release: its reports count whoever sends them.
        if (releases.isKnown(entry.appVersion) && !releases.known().some((r) => r.version === entry.appVersion)) await reporter(entry.appVersion);
        return;
      }
      // A client whose bucket (a `/version` check's: whole percents) the release (or a newer one) was never
      // offered to could not run it; nor an install whose cohort bucket is outside the release's ramp.
      if (release.publishedAt > now) return;
      if (
        installId === undefined
          ? ports.rolloutBucket(clientKeyOf(request)) >= wholePercent(rolloutInForce(release, now))
          : !(await ports.installInRamp?.(release, installId, now))
      ) return;
      await reporter(release.version);
      if (isRamping(release, now)) await decide(release, request.requestId ?? '');
    },
  };
}
