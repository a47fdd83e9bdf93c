/**
 * The update files as an instance serves them (issue 54): every stored file of each channel held in
 * memory, each refresh reading only the files above the newest version of each role it holds (a role's
 * versions are stored in order), so that an update check, a version never stored and a hash never listed
 * are answered from memory, never with a database statement, and an idle refresh reads nothing. Only
 * stored bytes are served: the instance that signed a file serves it as every other does, from storage.
 *
 * @module
 */
import { entityTag } from '../http/conditional.ts';
import type { UpdateFile, UpdateFileReads, UpdateFileRole, UpdateFileVersions } from '../ports/update-files.ts';

/** One file ready to serve. */
export interface ServedFile {
  role: UpdateFileRole;
  version: number;
  body: Uint8Array;
  /** Its strong ETag (the first 128 bits of its SHA-256). */
  tag: string;
  storedAt: number;
  expiresAt: number;
}

/** The files of one channel. */
export interface ChannelFiles {
  /** The file of a role's highest version, or null when the channel has none yet. */
  newest(role: UpdateFileRole): ServedFile | null;
  /** One version of a role, or null when it was never stored (or is no longer kept). */
  file(role: UpdateFileRole, version: number): ServedFile | null;
  /** The installer address of a target listed by a kept targets file, by its consistent-snapshot name `<sha256>.<name>`. */
  targetUrl(hashedName: string): string | null;
}

/** The files of every channel, kept current by `refresh`. */
export interface ServedFiles {
  /** A channel's files, or null for a channel that does not exist. */
  channel(name: string): ChannelFiles | null;
  /** The channels that exist, the most stable first (core/releases/channels.ts). */
  readonly names: readonly string[];
  /** Reads the files stored above the newest it holds, and forgets superseded files older than `keepMs`. */
  refresh(now: number): Promise<void>;
}

/** A channel's newest root, or null when it has none yet: what the standalone server's start log says of it. */
export interface ChannelRoot {
  channel: string;
  root: { version: number; expiresAt: number } | null;
}

/** The newest root each channel serves. */
export function newestRoots(files: ServedFiles): ChannelRoot[] {
  return files.names.map((channel) => {
    const root = files.channel(channel)?.newest('root') ?? null;
    return { channel, root: root === null ? null : { version: root.version, expiresAt: root.expiresAt } };
  });
}

/**
 * How far apart the clocks of two instances may be: a superseded file stays served this much longer than
 * two timestamp max-ages after it was stored (its `storedAt` is the storing instance's clock).
 */
export const UPDATE_SKEW_MS = 10 * 60 * 1000;

const encoder = new TextEncoder();

interface Kept {
  byRole: Map<UpdateFileRole, Map<number, ServedFile>>;
  newest: Map<UpdateFileRole, ServedFile>;
  targets: Map<string, string>;
  /** Targets names by the targets version that listed them, so that forgetting a version forgets its names. */
  targetNames: Map<number, string[]>;
}

/** The `<sha256>.<name>` and address of each target of a targets file; none when it cannot be read. */
function targetsOf(text: string): [string, string][] {
  try {
    const targets = (JSON.parse(text) as { signed?: { targets?: Record<string, { hashes?: { sha256?: unknown }; custom?: { url?: unknown } }> } })
      .signed?.targets ?? {};
    return Object.entries(targets).flatMap(([name, target]) => {
      const sha256 = target.hashes?.sha256;
      const url = target.custom?.url;
      return typeof sha256 === 'string' && typeof url === 'string' ? [[`${sha256}.${name}`, url] as [string, string]] : [];
    });
  } catch {
    return [];
  }
}

/**
 * Creates the served files of `channels`, empty until the first refresh.
 *
 * @param reads Where the files are stored.
 * @param channels The channels that exist.
 * @param keepMs How long a superseded timestamp, snapshot or targets file stays served after it was
 *   stored (roots stay for good): at least twice the timestamp's max-age plus the clock skew allowed.
 */
export function createServedFiles(reads: UpdateFileReads, channels: readonly string[], keepMs: number): ServedFiles {
  const kept = new Map<string, Kept>(
    channels.map((name) => [name, { byRole: new Map(), newest: new Map(), targets: new Map(), targetNames: new Map() }]),
  );

  async function add(files: Kept, file: UpdateFile): Promise<void> {
    const versions = files.byRole.get(file.role) ?? new Map<number, ServedFile>();
    files.byRole.set(file.role, versions);
    // Versions come in ascending order, and only those above the newest held (a storage that ignores
    // `above` lists them all: those are not added again).
    if ((files.newest.get(file.role)?.version ?? 0) >= file.version) return;
    const body = encoder.encode(file.text);
    const served: ServedFile = { role: file.role, version: file.version, body, tag: await entityTag(body), storedAt: file.storedAt, expiresAt: file.expiresAt };
    versions.set(file.version, served);
    files.newest.set(file.role, served);
    if (file.role === 'targets') {
      const listed = targetsOf(file.text);
      for (const [name, url] of listed) files.targets.set(name, url);
      files.targetNames.set(file.version, listed.map(([name]) => name));
    }
  }

  function forget(files: Kept, before: number): void {
    for (const [role, versions] of files.byRole) {
      if (role === 'root') continue;
      const newest = files.newest.get(role)?.version;
      for (const [version, file] of versions) {
        if (version === newest || file.storedAt >= before) continue;
        versions.delete(version);
        if (role === 'targets') files.targetNames.delete(version);
      }
    }
    // A target stays addressable while any kept targets file lists it.
    const listed = new Set([...files.targetNames.values()].flat());
    for (const name of files.targets.keys()) if (!listed.has(name)) files.targets.delete(name);
  }

  return {
    names: [...channels],
    channel(name) {
      const files = kept.get(name);
      if (!files) return null;
      return {
        newest: (role) => files.newest.get(role) ?? null,
        file: (role, version) => files.byRole.get(role)?.get(version) ?? null,
        targetUrl: (hashedName) => files.targets.get(hashedName) ?? null,
      };
    },
    async refresh(now) {
      for (const [name, files] of kept) {
        const held: UpdateFileVersions = Object.fromEntries([...files.newest].map(([role, file]) => [role, file.version]));
        for (const file of await reads.listUpdateFiles(name, undefined, held)) await add(files, file);
        forget(files, now - keepMs);
      }
    },
  };
}
