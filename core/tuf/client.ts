/**
 * The desktop app's side of the update files (issue 54), written once: TUF 1.0's detailed client workflow
 * (spec 1.0.31 section 5) over a `fetch(path) → bytes | null` port, then the rollout rule of cohort.ts.
 *
 * From a trusted state (the pinned root, and the last good timestamp, snapshot and targets), it walks
 * `{N+1}.root.json` until one is missing, each checked against the root before it; drops the trusted
 * timestamp and snapshot when their keys rotated (5.3.11); reads `timestamp.json`,
 * `{v}.snapshot.json` and `{v}.targets.json`, each checked for hash and length as the role above names
 * them, signature, version and expiry; and chooses a target at `evaluationTime`. Every refusal is a
 * typed reason; nothing is trusted that was not checked, and the state to keep is given back either way
 * (a root walked stays trusted even when a later file is refused, as 5.3.8 has it).
 *
 * One rule is the app's own, beyond TUF: a timestamp signed more than a day ahead of the app's clock
 * (`expires` less its 24 hours of life) says the clock is wrong (`wrong-clock`), not that the feed is good;
 * an expired timestamp says the feed is stale (`stale`).
 *
 * @module
 */
import { canonicalJson } from './canonical-json.ts';
import { chooseTarget, evaluationTime, TIMESTAMP_LIFETIME_MS } from './cohort.ts';
import { sha256Hex, type TufKey } from './keys.ts';
import {
  type Envelope,
  EXPIRES_FORM,
  type MetaEntry,
  type RoleKeys,
  type RootSigned,
  type SnapshotSigned,
  type TargetsSigned,
  type TimestampSigned,
} from './metadata.ts';
import type { ReleaseTarget } from './feed.ts';
import { checkNewRoot, isRecord, verifyEnvelope } from './verify.ts';

/** Why the app refuses the files it was served. */
export type RefusalReason =
  /** A file is not JSON, not canonical, or not of its role's shape. */
  | 'malformed'
  /** A file the role above names is not served (404, or no answer). */
  | 'missing'
  /** The final root, the snapshot or the targets expired. */
  | 'expired'
  /** The timestamp expired, and the app's clock is not behind it: the feed is not being refreshed. */
  | 'stale'
  /** The timestamp was signed more than `CLOCK_SKEW_MS` ahead of the app's clock: the clock is wrong. */
  | 'wrong-clock'
  /** A version lower than the trusted one (or the same version with other bytes), or a root not the next version. */
  | 'rollback'
  /** A file whose version is not the one the role above names. */
  | 'version-mismatch'
  /** A file whose length or SHA-256 is not the one the role above names. */
  | 'hash-mismatch'
  /** Signatures by the role's keys that do not reach its threshold (a file changed after signing). */
  | 'bad-signature'
  /** No signature by any key the root names for the role. */
  | 'unknown-key';

/** What the app keeps between checks: the texts of the files it trusts. */
export interface TrustedState {
  /** The newest trusted root; first the one the app pins. */
  root: string;
  timestamp?: string;
  snapshot?: string;
  targets?: string;
}

/** Reads a file of the channel's repository (`timestamp.json`, `3.snapshot.json`...): its bytes, or null when there is none. */
export type UpdateFilesFetch = (path: string) => Promise<Uint8Array | null>;

export interface UpdateCheckOptions {
  fetch: UpdateFilesFetch;
  trusted: TrustedState;
  /** The app's clock, epoch ms. */
  now: number;
  installId: string;
  installedVersion: string;
  /** How many roots one check walks at most (32, as python-tuf). */
  maxRootRotations?: number;
}

/** The end of a check: what to install, nothing, or a refusal; and the state to keep for the next check. */
export type UpdateCheckResult =
  | { outcome: 'install'; version: string; name: string; target: ReleaseTarget; evaluatedAt: number; trusted: TrustedState }
  | { outcome: 'none'; evaluatedAt: number; trusted: TrustedState }
  | { outcome: 'refuse'; reason: RefusalReason; message: string; trusted: TrustedState };

/** How far ahead of the app's clock a timestamp may have been signed before the clock is taken for wrong: 24 hours. */
export const CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

/** The check's outcome in one line, as docs/vectors/update-files.json writes it: `install 2.7.0`, `none`, `refuse stale`. */
export function outcomeLine(result: UpdateCheckResult): string {
  if (result.outcome === 'install') return `install ${result.version}`;
  return result.outcome === 'none' ? 'none' : `refuse ${result.reason}`;
}

class Refusal extends Error {
  constructor(readonly reason: RefusalReason, message: string) {
    super(message);
  }
}

const refuse = (reason: RefusalReason, message: string): never => {
  throw new Refusal(reason, message);
};

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A file's envelope, of `type`, with a version and an expiry; refused as `malformed` otherwise. */
function envelopeOf<T>(bytes: Uint8Array, path: string, type: string): Envelope<T & { version: number; expires: string }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(decoder.decode(bytes));
    // Signatures are over the canonical JSON of `signed`, as TUF 1.0 and every stock client have them (not over
    // the served bytes, whose hashes the parent names): a value canonical JSON cannot encode is refused here.
    canonicalJson(parsed);
  } catch {
    return refuse('malformed', `${path} is not JSON that canonical JSON can encode (UTF-8, integers only).`);
  }
  if (!isRecord(parsed) || !isRecord(parsed['signed']) || !Array.isArray(parsed['signatures'])) {
    return refuse('malformed', `${path} is not {"signed": {...}, "signatures": [...]}.`);
  }
  const signed = parsed['signed'];
  const version = signed['version'];
  if (signed['_type'] !== type) refuse('malformed', `${path} is of type ${JSON.stringify(signed['_type'])}, not ${type}.`);
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) refuse('malformed', `${path} has no version from 1.`);
  if (typeof signed['expires'] !== 'string' || !EXPIRES_FORM.test(signed['expires'])) refuse('malformed', `${path} has no expires.`);
  return parsed as unknown as Envelope<T & { version: number; expires: string }>;
}

/** A meta entry of timestamp or snapshot, checked for shape. */
function metaOf(meta: unknown, name: string, path: string): MetaEntry {
  const entry = isRecord(meta) ? meta[name] : undefined;
  const hashes = isRecord(entry) ? entry['hashes'] : undefined;
  if (
    !isRecord(entry) || typeof entry['version'] !== 'number' || !Number.isSafeInteger(entry['version']) || entry['version'] < 1 ||
    typeof entry['length'] !== 'number' || !isRecord(hashes) || typeof hashes['sha256'] !== 'string'
  ) {
    return refuse('malformed', `${path} does not name ${name} with its version, length and sha256.`);
  }
  return entry as unknown as MetaEntry;
}

/** Refuses an envelope not signed by a threshold of the role's keys: `unknown-key` when no signature is by one of them. */
async function checkSigned(envelope: Envelope<unknown>, root: RootSigned, role: keyof RootSigned['roles'], path: string): Promise<void> {
  const keys: Record<string, TufKey> = root.keys;
  const roleKeys: RoleKeys = root.roles[role];
  if (await verifyEnvelope(envelope, keys, roleKeys)) return;
  const byRoleKey = envelope.signatures.some((signature) => isRecord(signature) && roleKeys.keyids.includes(signature.keyid as string));
  if (!byRoleKey) refuse('unknown-key', `${path} is signed by no ${role} key of root version ${root.version}.`);
  refuse('bad-signature', `${path}: the signatures by ${role} keys do not verify (threshold ${roleKeys.threshold}).`);
}

/** Refuses bytes whose length or SHA-256 is not the entry's. */
async function checkBytes(bytes: Uint8Array, entry: MetaEntry, path: string): Promise<void> {
  if (bytes.length !== entry.length) refuse('hash-mismatch', `${path} is ${bytes.length} bytes, not the ${entry.length} named.`);
  if ((await sha256Hex(bytes)) !== entry.hashes.sha256) refuse('hash-mismatch', `${path}'s SHA-256 is not the one named.`);
}

const same = (a: RoleKeys, b: RoleKeys) => a.threshold === b.threshold && [...a.keyids].sort().join() === [...b.keyids].sort().join();
const textOf = (bytes: Uint8Array) => decoder.decode(bytes);

/** The roots after the trusted one, walked (5.3): each the next version, signed by the old and new root keys. */
async function walkRoots(options: UpdateCheckOptions, state: TrustedState): Promise<RootSigned> {
  let root = (JSON.parse(state.root) as Envelope<RootSigned>).signed;
  const first = root;
  for (let walked = 0; walked < (options.maxRootRotations ?? 32); walked++) {
    const path = `${root.version + 1}.root.json`;
    const bytes = await options.fetch(path);
    if (bytes === null) break;
    let candidate: unknown;
    try {
      candidate = JSON.parse(decoder.decode(bytes));
    } catch {
      refuse('malformed', `${path} is not JSON text.`);
    }
    // An intermediate root may have expired (5.3.10 checks the final one only): no time here.
    const checked = await checkNewRoot(candidate, root, Number.NEGATIVE_INFINITY);
    if (!checked.ok) {
      const reason = /^signed\.version is/.test(checked.problem) ? 'rollback' : /^The root is signed by/.test(checked.problem) ? 'bad-signature' : 'malformed';
      refuse(reason, `${path}: ${checked.problem}`);
    }
    root = (checked as { root: RootSigned }).root;
    state.root = textOf(bytes);
  }
  if (Date.parse(root.expires) <= options.now) refuse('expired', `root version ${root.version} expired at ${root.expires}.`);
  // 5.3.11: a rotation of the timestamp or snapshot keys makes the trusted timestamp and snapshot worthless (a recovery from a fast-forward).
  if (!same(first.roles.timestamp, root.roles.timestamp) || !same(first.roles.snapshot, root.roles.snapshot)) {
    delete state.timestamp;
    delete state.snapshot;
  }
  return root;
}

async function check(options: UpdateCheckOptions, state: TrustedState): Promise<UpdateCheckResult> {
  const root = await walkRoots(options, state);
  const { now } = options;

  // 5.4: the timestamp.
  const timestampBytes = (await options.fetch('timestamp.json')) ?? refuse('missing', 'timestamp.json is not served.');
  const timestamp = envelopeOf<TimestampSigned>(timestampBytes, 'timestamp.json', 'timestamp');
  await checkSigned(timestamp, root, 'timestamp', 'timestamp.json');
  const snapshotEntry = metaOf(timestamp.signed.meta, 'snapshot.json', 'timestamp.json');
  if (state.timestamp !== undefined) {
    const trusted = JSON.parse(state.timestamp) as Envelope<TimestampSigned>;
    if (timestamp.signed.version < trusted.signed.version) {
      refuse('rollback', `timestamp.json is version ${timestamp.signed.version}, below the trusted ${trusted.signed.version}.`);
    }
    if (timestamp.signed.version === trusted.signed.version && textOf(timestampBytes) !== state.timestamp) {
      refuse('rollback', `timestamp.json is version ${timestamp.signed.version}, as the trusted one, with other bytes.`);
    }
    if (snapshotEntry.version < trusted.signed.meta['snapshot.json'].version) {
      refuse('rollback', `timestamp.json names snapshot version ${snapshotEntry.version}, below the trusted ${trusted.signed.meta['snapshot.json'].version}.`);
    }
  }
  const expires = Date.parse(timestamp.signed.expires);
  if (expires - TIMESTAMP_LIFETIME_MS > now + CLOCK_SKEW_MS) {
    refuse('wrong-clock', `timestamp.json was signed at ${new Date(expires - TIMESTAMP_LIFETIME_MS).toISOString()}, over a day ahead of this clock.`);
  }
  if (expires <= now) refuse('stale', `timestamp.json expired at ${timestamp.signed.expires}: the update files are not being refreshed.`);

  // 5.5: the snapshot, as the timestamp names it.
  const snapshotPath = `${snapshotEntry.version}.snapshot.json`;
  const snapshotBytes = (await options.fetch(snapshotPath)) ?? refuse('missing', `${snapshotPath} is not served.`);
  await checkBytes(snapshotBytes, snapshotEntry, snapshotPath);
  const snapshot = envelopeOf<SnapshotSigned>(snapshotBytes, snapshotPath, 'snapshot');
  await checkSigned(snapshot, root, 'snapshot', snapshotPath);
  if (snapshot.signed.version !== snapshotEntry.version) {
    refuse('version-mismatch', `${snapshotPath} is version ${snapshot.signed.version}, not the ${snapshotEntry.version} timestamp.json names.`);
  }
  const targetsEntry = metaOf(snapshot.signed.meta, 'targets.json', snapshotPath);
  if (state.snapshot !== undefined) {
    const trusted = JSON.parse(state.snapshot) as Envelope<SnapshotSigned>;
    if (snapshot.signed.version < trusted.signed.version) {
      refuse('rollback', `${snapshotPath} is below the trusted snapshot version ${trusted.signed.version}.`);
    }
    if (targetsEntry.version < trusted.signed.meta['targets.json'].version) {
      refuse('rollback', `${snapshotPath} names targets version ${targetsEntry.version}, below the trusted ${trusted.signed.meta['targets.json'].version}.`);
    }
  }
  if (Date.parse(snapshot.signed.expires) <= now) refuse('expired', `${snapshotPath} expired at ${snapshot.signed.expires}.`);

  // 5.6: the targets, as the snapshot names them.
  const targetsPath = `${targetsEntry.version}.targets.json`;
  const targetsBytes = (await options.fetch(targetsPath)) ?? refuse('missing', `${targetsPath} is not served.`);
  await checkBytes(targetsBytes, targetsEntry, targetsPath);
  const targets = envelopeOf<TargetsSigned<ReleaseTarget>>(targetsBytes, targetsPath, 'targets');
  await checkSigned(targets, root, 'targets', targetsPath);
  if (targets.signed.version !== targetsEntry.version) {
    refuse('version-mismatch', `${targetsPath} is version ${targets.signed.version}, not the ${targetsEntry.version} the snapshot names.`);
  }
  if (Date.parse(targets.signed.expires) <= now) refuse('expired', `${targetsPath} expired at ${targets.signed.expires}.`);
  const releases = targets.signed.targets;
  if (!isRecord(releases) || !Object.values(releases).every(releaseShaped)) refuse('malformed', `${targetsPath} lists a target without its release fields.`);

  // Every file holds: they are the state to keep, and the choice is made on them.
  const trusted: TrustedState = { root: state.root, timestamp: textOf(timestampBytes), snapshot: textOf(snapshotBytes), targets: textOf(targetsBytes) };
  const evaluatedAt = evaluationTime(now, expires, TIMESTAMP_LIFETIME_MS);
  const chosen = await chooseTarget(releases, options.installedVersion, options.installId, evaluatedAt);
  if (chosen === null) return { outcome: 'none', evaluatedAt, trusted };
  return { outcome: 'install', version: chosen.target.custom.version, name: chosen.name, target: chosen.target, evaluatedAt, trusted };
}

/** Whether a target carries the release fields the choice reads. */
function releaseShaped(target: unknown): boolean {
  if (!isRecord(target) || !isRecord(target['custom'])) return false;
  const custom = target['custom'];
  const halted = custom['haltedAt'];
  return typeof custom['version'] === 'string' && typeof custom['seed'] === 'string' && /^([0-9a-fA-F]{2})+$/.test(custom['seed']) &&
    (halted === null || (typeof halted === 'string' && !Number.isNaN(Date.parse(halted)))) && Array.isArray(custom['schedule']) &&
    custom['schedule'].every((step) =>
      isRecord(step) && typeof step['at'] === 'string' && !Number.isNaN(Date.parse(step['at'])) && Number.isSafeInteger(step['basisPoints'])
    );
}

/**
 * One update check: refreshes the update files from the trusted state and chooses what to install.
 *
 * @param options The port that reads the channel's files, the trusted state, the clock and the install.
 * @returns `install` with the target (download it from `{sha256}.{name}` and check its length and SHA-256),
 *   `none`, or `refuse` with its reason; and in each, `trusted`: the state to keep (the roots walked, and
 *   on success the files verified).
 */
export async function checkForUpdate(options: UpdateCheckOptions): Promise<UpdateCheckResult> {
  const state: TrustedState = { ...options.trusted };
  try {
    return await check(options, state);
  } catch (error) {
    if (error instanceof Refusal) return { outcome: 'refuse', reason: error.reason, message: error.message, trusted: state };
    throw error;
  }
}
