/**
 * The TUF 1.0 metadata of one channel (spec 1.0.31): the `signed` parts of root, timestamp, snapshot and
 * targets, their builders, and the signed envelope exactly as it is served. Root keys sign root; one online
 * key signs timestamp, snapshot and targets (threshold 1). Snapshots are consistent: files are served as
 * `{version}.root.json`, `{version}.snapshot.json`, `{version}.targets.json` and `timestamp.json`.
 *
 * @module
 */
import { canonicalJson } from './canonical-json.ts';
import { keyIdOf, sha256Hex, type TufKey, type TufSigner } from './keys.ts';
import { toHex } from '../formats/hex.ts';

/** The TUF specification version the metadata follows. */
export const SPEC_VERSION = '1.0.31';

/** The keys of a role and how many of them must sign. */
export interface RoleKeys {
  keyids: string[];
  threshold: number;
}

/** What every `signed` part has. */
interface SignedCommon {
  spec_version: typeof SPEC_VERSION;
  /** 1, 2, ... per role. */
  version: number;
  /** `YYYY-MM-DDTHH:MM:SSZ` (`expiresText`). */
  expires: string;
}

export interface RootSigned extends SignedCommon {
  _type: 'root';
  consistent_snapshot: true;
  keys: Record<string, TufKey>;
  roles: { root: RoleKeys; timestamp: RoleKeys; snapshot: RoleKeys; targets: RoleKeys };
}

/** A metadata file as snapshot and timestamp list it. */
export interface MetaEntry {
  version: number;
  /** Its length in bytes (UTF-8). */
  length: number;
  hashes: { sha256: string };
}

export interface TimestampSigned extends SignedCommon {
  _type: 'timestamp';
  meta: { 'snapshot.json': MetaEntry };
}

export interface SnapshotSigned extends SignedCommon {
  _type: 'snapshot';
  meta: { 'targets.json': MetaEntry };
}

/** A target file as the targets role lists it. */
export interface TargetFile<C = unknown> {
  length: number;
  hashes: { sha256: string };
  custom: C;
}

export interface TargetsSigned<T = TargetFile> extends SignedCommon {
  _type: 'targets';
  targets: Record<string, T>;
}

/** One signature: the signing key's keyid and the Ed25519 signature in hex. */
export interface Signature {
  keyid: string;
  sig: string;
}

/** A metadata file: its `signed` part and the signatures of its canonical JSON. */
export interface Envelope<T> {
  signed: T;
  signatures: Signature[];
}

const encoder = new TextEncoder();

/** The one form of an `expires`: `YYYY-MM-DDTHH:MM:SSZ` (`expiresText`). */
export const EXPIRES_FORM = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/**
 * The `expires` text of a time: `YYYY-MM-DDTHH:MM:SSZ`, the one form every TUF client parses (python-tuf
 * reads it with `%Y-%m-%dT%H:%M:%SZ`). Milliseconds are dropped, so it never expires later than asked.
 *
 * @param ms Epoch milliseconds, in years 1970-9999.
 */
export function expiresText(ms: number): string {
  const text = new Date(ms - (ms % 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (ms < 0 || !EXPIRES_FORM.test(text)) throw new Error(`expires: ${ms} is not a time of years 1970-9999`);
  return text;
}

/**
 * The time an `expires` text names.
 *
 * @returns Epoch milliseconds.
 * @throws Error when it is not `YYYY-MM-DDTHH:MM:SSZ`.
 */
export function expiresMs(text: string): number {
  if (!EXPIRES_FORM.test(text)) throw new Error(`expires: ${JSON.stringify(text)} is not YYYY-MM-DDTHH:MM:SSZ`);
  return Date.parse(text);
}

function checkVersion(version: number): void {
  if (!Number.isSafeInteger(version) || version < 1) throw new Error(`metadata version ${version} is not a whole number from 1`);
}

/** What every builder takes: the version and when it expires (epoch ms). */
export interface SignedTerms {
  version: number;
  expires: number;
}

function common(terms: SignedTerms): SignedCommon {
  checkVersion(terms.version);
  return { spec_version: SPEC_VERSION, version: terms.version, expires: expiresText(terms.expires) };
}

/**
 * The `signed` part of a root.
 *
 * @param rootKeys The keys that sign roots (this one and the next, which the app walks).
 * @param rootThreshold How many of them must sign, 1 to their number.
 * @param onlineKey The key that signs timestamp, snapshot and targets (threshold 1); never a root key.
 */
export async function buildRoot(
  terms: SignedTerms & { rootKeys: readonly TufKey[]; rootThreshold: number; onlineKey: TufKey },
): Promise<RootSigned> {
  const keys: Record<string, TufKey> = {};
  for (const key of terms.rootKeys) keys[await keyIdOf(key)] = key;
  const rootIds = Object.keys(keys).sort();
  const onlineId = await keyIdOf(terms.onlineKey);
  if (keys[onlineId] !== undefined) throw new Error('root: the online key must not be a root key');
  if (!Number.isSafeInteger(terms.rootThreshold) || terms.rootThreshold < 1 || terms.rootThreshold > rootIds.length) {
    throw new Error(`root: threshold ${terms.rootThreshold} is not 1 to the ${rootIds.length} distinct root keys`);
  }
  keys[onlineId] = terms.onlineKey;
  const online = (): RoleKeys => ({ keyids: [onlineId], threshold: 1 });
  return {
    _type: 'root',
    ...common(terms),
    consistent_snapshot: true,
    keys,
    roles: { root: { keyids: rootIds, threshold: terms.rootThreshold }, timestamp: online(), snapshot: online(), targets: online() },
  };
}

/** The `signed` part of targets, listing `targets`. */
export function buildTargets<T>(terms: SignedTerms & { targets: Record<string, T> }): TargetsSigned<T> {
  return { _type: 'targets', ...common(terms), targets: terms.targets };
}

/** The `signed` part of a snapshot, listing the targets file (`metaEntryOf` its text). */
export function buildSnapshot(terms: SignedTerms & { targets: MetaEntry }): SnapshotSigned {
  return { _type: 'snapshot', ...common(terms), meta: { 'targets.json': terms.targets } };
}

/** The `signed` part of a timestamp, listing the snapshot file (`metaEntryOf` its text). */
export function buildTimestamp(terms: SignedTerms & { snapshot: MetaEntry }): TimestampSigned {
  return { _type: 'timestamp', ...common(terms), meta: { 'snapshot.json': terms.snapshot } };
}

/**
 * Signs a `signed` part with each signer (once per keyid), signatures in keyid order.
 *
 * @param signed The `signed` part; its canonical JSON is what is signed.
 * @param signers The keys that sign it.
 */
export async function signEnvelope<T>(signed: T, signers: readonly TufSigner[]): Promise<Envelope<T>> {
  const bytes = encoder.encode(canonicalJson(signed));
  const distinct = [...new Map(signers.map((signer) => [signer.keyid, signer])).values()].sort((a, b) => (a.keyid < b.keyid ? -1 : 1));
  const signatures = await Promise.all(distinct.map(async (signer) => ({ keyid: signer.keyid, sig: toHex(await signer.sign(bytes)) })));
  return { signed, signatures };
}

/** The text of a metadata file as served: the canonical JSON of its envelope (UTF-8 once encoded). */
export function envelopeText(envelope: Envelope<unknown>): string {
  return canonicalJson(envelope);
}

/**
 * How snapshot and timestamp list a metadata file: its `signed.version`, length and SHA-256.
 *
 * @param text The file as served (`envelopeText`).
 */
export async function metaEntryOf(text: string): Promise<MetaEntry> {
  const version = (JSON.parse(text) as { signed?: { version?: unknown } }).signed?.version;
  if (typeof version !== 'number') throw new Error('meta: the text has no signed.version');
  checkVersion(version);
  const bytes = encoder.encode(text);
  return { version, length: bytes.length, hashes: { sha256: await sha256Hex(bytes) } };
}
