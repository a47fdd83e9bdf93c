/**
 * The signed update files in memory (core/ports/update-files.ts): one record per channel, role and version,
 * never replaced; a change's face undoes its own puts and prunes when the change throws.
 *
 * @module
 */
import type { UpdateFile, UpdateFileRole, UpdateFileStore } from '../../core/ports/update-files.ts';
import { deleteKey, type MemoryFace, setKey } from './undo.ts';

/** The key of one file: its channel, role and version (a channel has no NUL). */
const keyOf = (channel: string, role: UpdateFileRole, version: number) => `${channel}\u0000${role}\u0000${version}`;

/** Each role's in ascending version, roles by name: the order listUpdateFiles gives (the port allows any for roles). */
const byRoleThenVersion = (a: UpdateFile, b: UpdateFile) => (a.role < b.role ? -1 : a.role > b.role ? 1 : a.version - b.version);

/** Creates an in-process store of update files; a change's face undoes its own writes when the change throws. */
export function createMemoryUpdateFiles(): MemoryFace<UpdateFileStore> {
  const files = new Map<string, UpdateFile>();
  const ofChannel = (channel: string) => [...files.values()].filter((file) => file.channel === channel);
  const newest = (channel: string, role: UpdateFileRole): UpdateFile | null => {
    let found: UpdateFile | null = null;
    for (const file of files.values()) {
      if (file.channel === channel && file.role === role && (found === null || file.version > found.version)) found = file;
    }
    return found;
  };
  return (undo) => ({
    async getUpdateFile(channel, role, version) {
      const file = files.get(keyOf(channel, role, version));
      return file ? { ...file } : null;
    },
    async newestUpdateFile(channel, role) {
      const file = newest(channel, role);
      return file ? { ...file } : null;
    },
    async listUpdateFiles(channel, since, above = {}) {
      return ofChannel(channel)
        .filter((file) => (since === undefined || file.storedAt >= since) && file.version > (above[file.role] ?? 0))
        .sort(byRoleThenVersion)
        .map((file) => ({ ...file }));
    },
    async putUpdateFile(file) {
      const key = keyOf(file.channel, file.role, file.version);
      // Never replaced: the first file of a version is the one served.
      if (files.has(key)) return false;
      const { channel, role, version, text, storedAt, expiresAt } = file;
      setKey(files, key, { channel, role, version, text, storedAt, expiresAt }, undo);
      return true;
    },
    async pruneUpdateFiles(channel, before) {
      const kept = ofChannel(channel);
      const newestOf = new Map<UpdateFileRole, number>();
      for (const file of kept) newestOf.set(file.role, Math.max(file.version, newestOf.get(file.role) ?? 0));
      let deleted = 0;
      for (const file of kept) {
        if (file.role === 'root' || file.storedAt >= before || file.version === newestOf.get(file.role)) continue;
        if (deleteKey(files, keyOf(file.channel, file.role, file.version), undo)) deleted++;
      }
      return deleted;
    },
  });
}
