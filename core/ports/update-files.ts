/**
 * The signed update files of each channel (issue 54, docs/updates.md "The update files"): TUF 1.0
 * metadata, signed once by the instance that made them and stored with their version, so that every
 * instance serves the same bytes. A file is never replaced: a new one has the next version.
 *
 * @module
 */

/** The four TUF roles whose metadata is stored, root first, then as each names the next. */
export const UPDATE_FILE_ROLES = ['root', 'timestamp', 'snapshot', 'targets'] as const;

/** One of the four TUF roles whose metadata is stored. */
export type UpdateFileRole = (typeof UPDATE_FILE_ROLES)[number];

/** One stored metadata file. */
export interface UpdateFile {
  /** The channel, `[a-z0-9-]{1,32}`: `stable`, `beta` or one the config names (core/releases/channels.ts). */
  channel: string;
  role: UpdateFileRole;
  /** The TUF `version` of its `signed` part: 1, 2, ... per channel and role. */
  version: number;
  /** The file exactly as it is served: the canonical JSON of `{signed, signatures}`, UTF-8. */
  text: string;
  /** When it was stored (epoch ms, the storing instance's clock). */
  storedAt: number;
  /** Its TUF `expires` (epoch ms), read from `signed` when stored, so that re-signing can be found without parsing. */
  expiresAt: number;
}

/** A version of each role (a role not named: none), such as the newest of each that an instance holds. */
export type UpdateFileVersions = Readonly<Partial<Record<UpdateFileRole, number>>>;

/** What is read of the update files. */
export interface UpdateFileReads {
  /** One file, or null when that channel, role and version was never stored (or was pruned). */
  getUpdateFile(channel: string, role: UpdateFileRole, version: number): Promise<UpdateFile | null>;
  /** The file of the highest version of a role, or null when there is none. */
  newestUpdateFile(channel: string, role: UpdateFileRole): Promise<UpdateFile | null>;
  /**
   * The files of a channel stored at or after `since` (epoch ms; every file without it) whose version is
   * above the one `above` gives their role (a role it does not name: every version), each role's in
   * ascending version, roles in any order: what an instance keeps in memory to serve from. Given the newest
   * version of each role it holds, an instance reads only the files stored since (a role's versions are
   * stored in order), so a refresh with nothing new reads nothing.
   */
  listUpdateFiles(channel: string, since?: number, above?: UpdateFileVersions): Promise<UpdateFile[]>;
}

/** Where update files are kept (every storage has one), whole as a change has it. */
export interface UpdateFileStore extends UpdateFileReads {
  /**
   * Stores a file when no file of its channel, role and version exists; false, storing nothing,
   * otherwise (another instance stored that version first: serve its bytes, never these).
   */
  putUpdateFile(file: UpdateFile): Promise<boolean>;
  /**
   * Deletes the timestamp, snapshot and targets files of a channel stored before `before` that are not
   * their role's newest; roots are never deleted (an app walks every one). The number deleted.
   */
  pruneUpdateFiles(channel: string, before: number): Promise<number>;
}
