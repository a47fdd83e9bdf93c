/**
 * Signs a channel's update files (issue 54): once a root names this app's online key, the releases become
 * a targets file, a snapshot naming it and a timestamp naming the snapshot, signed once and stored in one
 * change with the next versions. Run after each refresh (every second in the standalone server): it signs
 * only what `publishPlan` asks for (the list changed, a file nears its expiry, a root named another key),
 * and of two instances signing the same versions at once, the one whose change commits first is stored;
 * the other's change stores nothing and it serves the stored files, as every instance does.
 *
 * @module
 */
import type { Release } from '../ports/release-store.ts';
import type { CommittedChanges } from '../ports/change.ts';
import type { Clock, Logger } from '../ports/ports.ts';
import type { UpdateFile } from '../ports/update-files.ts';
import { toHex } from '../formats/hex.ts';
import { canonicalJson } from '../tuf/canonical-json.ts';
import { feedTargets, type ReleaseTarget } from '../tuf/feed.ts';
import type { TufSigner } from '../tuf/keys.ts';
import {
  buildSnapshot,
  buildTargets,
  buildTimestamp,
  envelopeText,
  expiresMs,
  type MetaEntry,
  metaEntryOf,
  type RootSigned,
  signEnvelope,
} from '../tuf/metadata.ts';
import { LIFETIMES, type NewestFile, type OnlineRole, publishPlan } from './publish-plan.ts';
import type { ChannelFiles, ServedFile } from './served-files.ts';
import type { ReleaseSummaries } from './summaries.ts';

/** What one publish did. */
export type PublishOutcome =
  | { kind: 'no-root' }
  | { kind: 'not-our-key'; rootVersion: number }
  | { kind: 'current' }
  | { kind: 'signed'; roles: OnlineRole[]; versions: Partial<Record<OnlineRole, number>> }
  | { kind: 'lost-race' };

export interface PublisherPorts {
  /** How long a superseded timestamp, snapshot or targets file stays stored (and served) after a newer one. */
  keepMs: number;
  /** The app's changes (core/ports/change.ts): the files are stored in one. */
  changes: CommittedChanges;
  signer: TufSigner;
  clock: Clock;
  logger: Logger;
  /** Each release's summary (summaries.ts), read again here before the targets are worked out. */
  summaries: ReleaseSummaries;
  /** The cohort seed of a major.minor line (`cohortSeeds`). */
  seedOf(line: string): string;
}

const decoder = new TextDecoder();

/** Another instance stored one of these versions first: roll the change back. */
class LostRace extends Error {
  override name = 'LostRace';
}

interface Parsed<T> {
  file: ServedFile;
  signed: T;
  signedBy: string[];
}

/**
 * A served file, parsed once: the publisher looks at the newest files on every refresh (each second), and a
 * served file's bytes never change, so its parse is kept with it for as long as it is served.
 */
const parsedFiles = new WeakMap<ServedFile, Parsed<unknown>>();

function parse<T>(file: ServedFile | null): Parsed<T> | null {
  if (file === null) return null;
  const kept = parsedFiles.get(file);
  if (kept) return kept as Parsed<T>;
  const envelope = JSON.parse(decoder.decode(file.body)) as { signed: T; signatures: { keyid: string }[] };
  const parsed: Parsed<T> = { file, signed: envelope.signed, signedBy: envelope.signatures.map((signature) => signature.keyid) };
  parsedFiles.set(file, parsed);
  return parsed;
}

const newestOf = (parsed: Parsed<unknown> | null): NewestFile | undefined =>
  parsed === null ? undefined : { version: parsed.file.version, expiresAt: parsed.file.expiresAt, signedBy: parsed.signedBy };

/** Publishes one channel from the releases: `files` as this app serves them, `releases` every stored release. */
export type UpdatePublisher = (channel: string, files: ChannelFiles, releases: readonly Release[]) => Promise<PublishOutcome>;

/**
 * The cohort seed of each major.minor line: 128 bits of a keyed hash of the line under the voter secret, so
 * every instance draws the same seed, a new line a new one, and nobody can choose which installs go first.
 *
 * @param secretMac HMAC-SHA-256 under the voter secret (core/clients/keyed-hash.ts createKeyedMac).
 */
export function cohortSeeds(secretMac: (subject: string) => Uint8Array): (line: string) => string {
  return (line) => toHex(secretMac(`converter-site-api update cohort seed\n${line}`).slice(0, 16));
}

/** Creates the publisher of one app. */
export function createUpdatePublisher(ports: PublisherPorts): UpdatePublisher {
  const { changes, signer, clock, logger } = ports;
  const warned = new Set<string>();

  return async function publish(channel: string, files: ChannelFiles, releases: readonly Release[]): Promise<PublishOutcome> {
    const root = parse<RootSigned>(files.newest('root'));
    if (root === null) return { kind: 'no-root' };
    const roles = root.signed.roles;
    if (![roles.timestamp, roles.snapshot, roles.targets].every((role) => role.keyids.includes(signer.keyid))) {
      const note = `${channel} ${root.file.version}`;
      if (!warned.has(note)) {
        warned.add(note);
        logger.warn('update files: the newest root does not name this online key; another instance signs them, or none does', {
          channel,
          rootVersion: root.file.version,
          onlineKeyid: signer.keyid,
        });
      }
      return { kind: 'not-our-key', rootVersion: root.file.version };
    }
    const now = clock.now();
    await ports.summaries.refresh();
    const wanted = feedTargets(releases, { summaryOf: ports.summaries.summaryOf, seedOf: ports.seedOf }, now);
    const targets = parse<{ targets: Record<string, ReleaseTarget> }>(files.newest('targets'));
    const snapshot = parse<unknown>(files.newest('snapshot'));
    const timestamp = parse<unknown>(files.newest('timestamp'));
    const plan = publishPlan({
      now,
      targetsChanged: targets === null || canonicalJson(targets.signed.targets) !== canonicalJson(wanted),
      rootKeyids: { timestamp: roles.timestamp.keyids, snapshot: roles.snapshot.keyids, targets: roles.targets.keyids },
      newest: { targets: newestOf(targets), snapshot: newestOf(snapshot), timestamp: newestOf(timestamp) },
    });
    if (plan.length === 0) return { kind: 'current' };

    const made: UpdateFile[] = [];
    const versions: Partial<Record<OnlineRole, number>> = {};
    const expires = (role: OnlineRole) => now + LIFETIMES[role].validMs;
    const next = (parsed: Parsed<unknown> | null) => (parsed?.file.version ?? 0) + 1;
    /** Signs a `signed` part, keeps the file for the change, and answers how its parent lists it. */
    const sign = async (signed: { _type: OnlineRole; version: number; expires: string }): Promise<MetaEntry> => {
      const text = envelopeText(await signEnvelope(signed, [signer]));
      made.push({ channel, role: signed._type, version: signed.version, text, storedAt: now, expiresAt: expiresMs(signed.expires) });
      versions[signed._type] = signed.version;
      return metaEntryOf(text);
    };
    /** How a parent lists a stored file it keeps naming. */
    const listed = (parsed: Parsed<unknown> | null) => metaEntryOf(decoder.decode(parsed!.file.body));
    // A parent is signed whenever its child is (publishPlan), so an unsigned child was stored before.
    const snapshotEntry = plan.includes('snapshot')
      ? await sign(buildSnapshot({
        version: next(snapshot),
        expires: expires('snapshot'),
        targets: plan.includes('targets')
          ? await sign(buildTargets({ version: next(targets), expires: expires('targets'), targets: wanted }))
          : await listed(targets),
      }))
      : await listed(snapshot);
    await sign(buildTimestamp({ version: next(timestamp), expires: expires('timestamp'), snapshot: snapshotEntry }));

    try {
      await changes.change(async (tx) => {
        for (const file of made) if (!(await tx.updateFiles.putUpdateFile(file))) throw new LostRace();
        // What no cached timestamp can name any more goes with the change that supersedes it (roots stay).
        await tx.updateFiles.pruneUpdateFiles(channel, now - ports.keepMs);
      });
    } catch (error) {
      if (error instanceof LostRace) return { kind: 'lost-race' };
      throw error;
    }
    logger.info('update files signed', { channel, ...versions });
    return { kind: 'signed', roles: plan, versions };
  };
}
