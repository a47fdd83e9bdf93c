/**
 * Checking TUF metadata as a client would (TUF 1.0 section 5.3.4): an envelope signed by a threshold of a
 * role's keys, and a new root file, whole, before it is stored and served. A root the server accepts is
 * one every installed app accepts: its shape, its version (the previous root's plus one), its expiry, and
 * signatures of a threshold of its own root keys and, for a rotation, of the previous root's. Pure: Web
 * Crypto only.
 *
 * @module
 */
import { canonicalJson } from './canonical-json.ts';
import { keyIdOf, type TufKey, verifyTufSignature } from './keys.ts';
import { type Envelope, EXPIRES_FORM, type RoleKeys, type RootSigned } from './metadata.ts';
import { UPDATE_FILE_ROLES } from '../ports/update-files.ts';

const encoder = new TextEncoder();

const HEX64 = /^[0-9a-f]{64}$/;

/** Whether a value is a JSON object: not null, not an array. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A keyid shortened for a message: its first 16 hex digits. */
const short = (keyid: string): string => (keyid.length > 16 ? `${keyid.slice(0, 16)}…` : keyid);

/**
 * The distinct keyids of `role` that signed the envelope's canonical JSON with a valid signature.
 *
 * A keyid counts once, only when `keys` holds its key and the keyid is that key's (`keyIdOf`).
 */
async function signersOf(envelope: Envelope<unknown>, keys: Record<string, TufKey>, role: RoleKeys): Promise<Set<string>> {
  const signed = new Set<string>();
  let bytes: Uint8Array;
  try {
    bytes = encoder.encode(canonicalJson(envelope.signed));
  } catch {
    return signed;
  }
  const signatures: unknown = envelope.signatures;
  if (!Array.isArray(signatures)) return signed;
  for (const signature of signatures as unknown[]) {
    if (!isRecord(signature) || typeof signature['keyid'] !== 'string' || typeof signature['sig'] !== 'string') continue;
    const keyid = signature['keyid'];
    if (signed.has(keyid) || !role.keyids.includes(keyid) || !Object.hasOwn(keys, keyid)) continue;
    const key = keys[keyid]!;
    if (!isEd25519Key(key) || (await keyIdOf(key)) !== keyid) continue;
    if (await verifyTufSignature(key, bytes, signature['sig'])) signed.add(keyid);
  }
  return signed;
}

/**
 * Whether an envelope is signed by at least `role.threshold` distinct keys of `role`: each listed in
 * `role.keyids`, held by `keys` under its own keyid (`keyIdOf`), with a valid Ed25519 signature of the
 * canonical JSON of `envelope.signed`.
 *
 * @returns false also for a threshold below 1, a `signed` part canonical JSON cannot write, and malformed signatures.
 */
export async function verifyEnvelope(envelope: Envelope<unknown>, keys: Record<string, TufKey>, role: RoleKeys): Promise<boolean> {
  if (!Number.isSafeInteger(role.threshold) || role.threshold < 1) return false;
  return (await signersOf(envelope, keys, role)).size >= role.threshold;
}

/** Whether a value is a TUF Ed25519 key with nothing else: keytype and scheme ed25519, 64 hex digits of public key. */
function isEd25519Key(value: unknown): value is TufKey {
  if (!isRecord(value) || Object.keys(value).sort().join() !== 'keytype,keyval,scheme') return false;
  const keyval = value['keyval'];
  return value['keytype'] === 'ed25519' && value['scheme'] === 'ed25519' && isRecord(keyval) && Object.keys(keyval).join() === 'public' &&
    typeof keyval['public'] === 'string' && HEX64.test(keyval['public']);
}

/** What checkNewRoot says: the root, typed, or the first problem in one sentence a person can act on. */
export type RootCheck = { ok: true; root: RootSigned } | { ok: false; problem: string };

class Problem extends Error {}

/** Whether an expires text names a real time (no 30 February): it reads back as written. */
const sameTime = (text: string): boolean => {
  const ms = Date.parse(text);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === text.replace(/Z$/, '.000Z');
};

function refuse(problem: string): never {
  throw new Problem(problem);
}

/** The shape of `signed`, checked: everything but its version, expiry and signatures. */
async function shapeOf(signed: Record<string, unknown>): Promise<RootSigned> {
  if (signed['_type'] !== 'root') refuse(`signed._type is ${JSON.stringify(signed['_type'])}, not "root": this is not a root file.`);
  const spec = signed['spec_version'];
  if (typeof spec !== 'string' || !/^1\.\d+(\.\d+)?$/.test(spec)) {
    refuse(
      `signed.spec_version is ${
        JSON.stringify(spec)
      }, not 1.x: TUF 1.0 clients read only spec_version 1; sign it with \`converter-site-api updates sign-root\`.`,
    );
  }
  if (signed['consistent_snapshot'] !== true) {
    refuse('signed.consistent_snapshot must be true: the files are served as {version}.{role}.json; sign it with `converter-site-api updates sign-root`.');
  }
  const version = signed['version'];
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    refuse(`signed.version is ${JSON.stringify(version)}, not a whole number from 1.`);
  }
  const keys = signed['keys'];
  if (!isRecord(keys)) refuse('signed.keys must be an object of keys by keyid.');
  for (const [keyid, key] of Object.entries(keys as Record<string, unknown>)) {
    if (!isEd25519Key(key)) {
      refuse(
        `signed.keys["${
          short(keyid)
        }"] is not an Ed25519 key: only {"keytype": "ed25519", "scheme": "ed25519", "keyval": {"public": <64 hex digits>}} is accepted.`,
      );
    }
    if ((await keyIdOf(key)) !== keyid) {
      refuse(`signed.keys["${short(keyid)}"] is listed under a keyid that is not its own (the SHA-256 of its canonical JSON).`);
    }
  }
  const roles = signed['roles'];
  if (!isRecord(roles)) refuse('signed.roles must be an object naming the root, timestamp, snapshot and targets roles.');
  const named = Object.keys(roles as Record<string, unknown>);
  const missing = UPDATE_FILE_ROLES.filter((role) => !named.includes(role));
  const extra = named.filter((role) => !(UPDATE_FILE_ROLES as readonly string[]).includes(role));
  if (missing.length > 0 || extra.length > 0) {
    refuse(
      `signed.roles must name exactly root, timestamp, snapshot and targets; ${
        missing.length > 0 ? `missing ${missing.join(', ')}` : `extra ${extra.join(', ')}`
      }.`,
    );
  }
  for (const name of UPDATE_FILE_ROLES) {
    const role = (roles as Record<string, unknown>)[name];
    const keyids = isRecord(role) ? role['keyids'] : undefined;
    const threshold = isRecord(role) ? role['threshold'] : undefined;
    if (!Array.isArray(keyids) || keyids.length === 0 || !keyids.every((id) => typeof id === 'string')) {
      refuse(`signed.roles.${name}.keyids must be a non-empty list of keyids.`);
    }
    const ids = keyids as string[];
    if (new Set(ids).size !== ids.length) refuse(`signed.roles.${name}.keyids lists a keyid twice.`);
    if (typeof threshold !== 'number' || !Number.isSafeInteger(threshold) || threshold < 1 || threshold > ids.length) {
      refuse(`signed.roles.${name}.threshold is ${JSON.stringify(threshold)}, not a whole number from 1 to its ${ids.length} keyids.`);
    }
    const unknown = ids.find((id) => !Object.hasOwn(keys as object, id));
    if (unknown !== undefined) refuse(`signed.roles.${name} names keyid ${short(unknown)}, which signed.keys does not hold.`);
  }
  return signed as unknown as RootSigned;
}

/**
 * A root file's `signed` part with its shape checked, not its signatures: the root a new one is checked
 * against, read from a file the operator names (`updates sign-root --previous`).
 */
export async function rootOf(file: unknown): Promise<RootCheck> {
  try {
    if (!isRecord(file) || !isRecord(file['signed'])) refuse('it is not a root file: {"signed": {...}, "signatures": [...]}.');
    const root = await shapeOf(file['signed']);
    if (!Number.isSafeInteger(root.version) || root.version < 1) refuse(`signed.version is ${JSON.stringify(root.version)}, not a whole number from 1.`);
    return { ok: true, root };
  } catch (error) {
    if (error instanceof Problem) return { ok: false, problem: error.message };
    throw error;
  }
}

/**
 * Checks a new root file of a channel before it is stored: what a TUF 1.0 client checks when it walks from
 * `previous` to it (section 5.3.4), and what this server's files need (Ed25519 keys, consistent snapshots).
 *
 * @param candidate The parsed JSON of the root file: `{signed, signatures}`.
 * @param previous The channel's newest stored root, or null when it has none (the candidate must be version 1).
 * @param now Epoch ms: the candidate must expire after it.
 * @returns The root, or the first problem found, as one sentence.
 */
export async function checkNewRoot(candidate: unknown, previous: RootSigned | null, now: number): Promise<RootCheck> {
  try {
    if (!isRecord(candidate) || !isRecord(candidate['signed']) || !Array.isArray(candidate['signatures'])) {
      refuse('The root file must be a JSON object {"signed": {...}, "signatures": [...]}, as `converter-site-api updates sign-root` writes it.');
    }
    const envelope = candidate as unknown as Envelope<Record<string, unknown>>;
    try {
      canonicalJson(envelope);
    } catch (error) {
      refuse(`The root file cannot be written as canonical JSON (${(error as Error).message}).`);
    }
    const root = await shapeOf(envelope.signed);
    const expected = previous === null ? 1 : previous.version + 1;
    if (root.version !== expected) {
      refuse(
        previous === null
          ? `signed.version is ${root.version}, but the channel has no root yet: its first root is version 1.`
          : `signed.version is ${root.version}, but the channel's newest root is version ${previous.version}: the next root must be version ${expected}.`,
      );
    }
    if (typeof root.expires !== 'string' || !EXPIRES_FORM.test(root.expires) || !sameTime(root.expires)) {
      refuse(`signed.expires is ${JSON.stringify(root.expires)}, not a time written YYYY-MM-DDTHH:MM:SSZ.`);
    }
    if (Date.parse(root.expires) <= now) refuse(`signed.expires ${root.expires} is past: sign the root again with a later --expires.`);
    const own = await signersOf(envelope, root.keys, root.roles.root);
    if (own.size < root.roles.root.threshold) {
      refuse(
        `The root is signed by ${own.size} of the ${root.roles.root.threshold} root keys it names that must sign it: sign it with its own root key(s) (--key).`,
      );
    }
    if (previous !== null) {
      const old = await signersOf(envelope, previous.keys, previous.roles.root);
      if (old.size < previous.roles.root.threshold) {
        refuse(
          `The root is signed by ${old.size} of the ${previous.roles.root.threshold} keys of root version ${previous.version} that must sign it: ` +
            'a rotation is signed by the old root key(s) too (--previous-key).',
        );
      }
    }
    return { ok: true, root };
  } catch (error) {
    if (error instanceof Problem) return { ok: false, problem: error.message };
    throw error;
  }
}
