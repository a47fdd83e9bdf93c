/**
 * Desktop releases with staged rollout: what GET /version and GET /download serve to each client.
 *
 * A release is one record (version, MSI URL, notes URL, rollout percentage), so an answer can never pair
 * one release's version with another's MSI. Which release a client gets is the rule of rollout-rule.ts:
 * the highest-version live release whose percent is above the client's rollout bucket (0-99, stable: a
 * keyed hash of its client key, an IPv6 client by its /64), else the configured baseline (the version
 * file and `download.msiUrl`), as before releases were stored.
 *
 * Every instance reads the stored releases at most once per `refreshMs` (500 ms by default), in the
 * background of the requests it answers meanwhile; a request that finds the last read a second old or
 * more waits for a new one. So every instance serves a change within a second of it, and a busy one
 * never makes a request wait for the database.
 *
 * @module
 */
import type { Clock, Logger, MaybePromise } from '../ports/port-types.ts';
import { inForce, nextSwitchAt } from './ramp-plan.ts';
import { PERCENT_BUCKETS, rolloutLadder, type Rung, servedFrom } from './rollout-rule.ts';
import type { Release, ReleaseReads } from '../ports/store-ports.ts';
import { STABLE } from './channels.ts';

export type { Release, ReleaseStore } from '../ports/store-ports.ts';

/** What one answer serves: a version and the MSI of that same version, with what the signed headers carry. */
export interface ServedRelease {
  version: string;
  msiUrl: string;
  /** The MSI's SHA-256 (hex) and size, when known. */
  sha256?: string | null;
  size?: number | null;
  notesUrl?: string | null;
  critical?: boolean;
}

/** The releases as the operations read them: from memory, refreshed in the background. */
export interface ReleaseView {
  /**
   * The release for a client, by its client key (`clientKeyOf`): its rollout bucket (0-99) is worked out
   * only while a release is staged; a bucket is a keyed hash, which an update check under a release at
   * 100 % never pays for.
   */
  pick(clientKey: string): ServedNow;
  /** Reads the store again now, in a read begun after this call (after a change made through this instance). */
  refresh(): Promise<void>;
  /** The configured release served to the clients no stored release is for. */
  baseline(): ServedNow;
  /** The stored releases as last read (pulled ones included), without waiting for a read. */
  known(): readonly Release[];
  /** Whether a version is one this server knows: a stored release, or the baseline last served. */
  isKnown(version: string): boolean;
}

/** The oldest read a request is answered from: every instance serves a change within this. */
const MAX_AGE_MS = 1000;

/** The release a client is served: at once from the view's last read, or once the baseline's version is read. */
export type ServedNow = MaybePromise<ServedRelease>;

/**
 * Creates the view.
 *
 * @param store The stored releases.
 * @param baseline The configured release (version file and `download.msiUrl`), served before any stored one.
 * @param bucketOf A client key's rollout bucket, 0-99.
 * @param afterRead Run with the releases after each read, before the read is done (the ramp steps'
 *   announcements, ramp-announcements.ts); it must not throw.
 */
export function createReleaseView(
  store: ReleaseReads,
  baseline: () => ServedNow,
  bucketOf: (clientKey: string) => number,
  clock: Clock,
  logger: Logger,
  afterRead: (releases: readonly Release[]) => Promise<void> = async () => {},
  refreshMs = 500,
): ReleaseView {
  /** The live releases that serve some of the 100 buckets, highest version first, by their rollouts in force rounded down to whole percents. */
  let ladder: Rung<Release>[] = [];
  /** Every stored release as last read, and its versions. */
  let stored: readonly Release[] = [];
  let versions = new Set<string>();
  let baselineVersion: string | null = null;
  /** When a ramp plan's next step begins: the ladder is worked out again then, without a read. */
  let switchAt = Infinity;
  const reladder = (now: number) => {
    // `/version` and `/download` serve the stable channel; the others are served as update files only.
    ladder = rolloutLadder(inForce(stored.filter((release) => release.channel === STABLE), now), PERCENT_BUCKETS);
    switchAt = nextSwitchAt(stored, now);
  };
  const servedBaseline = (): ServedNow => {
    const served = baseline();
    const note = (release: ServedRelease) => {
      baselineVersion = release.version;
      return release;
    };
    return 'then' in served ? served.then(note) : note(served);
  };
  /** When the last read that answered began: it holds every change made before that. */
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;
  let lastFaultLog = -Infinity;

  const read = (): Promise<void> => {
    if (reading) return reading;
    const startedAt = clock.now();
    reading = store
      .listReleases()
      .then((releases) => {
        stored = releases;
        versions = new Set(releases.map((release) => release.version));
        reladder(clock.now());
        // The baseline's version is known too, even while no client is served it (a fault is the answers' to report).
        try {
          void Promise.resolve(servedBaseline()).catch(() => undefined);
        } catch {
          // Reported by the answer that serves the baseline.
        }
        readAt = startedAt;
        return afterRead(releases);
      })
      .catch((error: unknown) => {
        // The last releases read stay served, and the store is asked again after refreshMs.
        readAt = Math.max(readAt, startedAt - MAX_AGE_MS + refreshMs);
        if (startedAt - lastFaultLog < 60_000) return;
        lastFaultLog = startedAt;
        logger.error('could not read the releases; serving the last ones read', { error: String(error) });
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  return {
    pick(clientKey) {
      const now = clock.now();
      const age = now - readAt;
      if (age >= MAX_AGE_MS) return read().then(() => choose(clientKey));
      if (age >= refreshMs) void read();
      if (now >= switchAt) reladder(now);
      return choose(clientKey);
    },
    // A read under way may have begun before the change this refresh is for: wait for it, then read again.
    refresh: async () => {
      if (reading) await reading;
      await read();
    },
    baseline: servedBaseline,
    known: () => stored,
    isKnown: (version) => versions.has(version) || version === baselineVersion,
  };

  function choose(clientKey: string): ServedNow {
    const top = ladder[0];
    if (top === undefined) return servedBaseline();
    // A release at 100 % serves every bucket: no bucket is worked out for it.
    if (top.to >= 100) return top.release;
    return servedFrom(ladder, bucketOf(clientKey)) ?? servedBaseline();
  }
}
