/**
 * The SHA-256 and size of a local MSI (`release publish --file path.msi`): read as a stream, so that a
 * large installer is never held in memory.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

/** The file's SHA-256 as 64 lower-case hex digits, and its size in bytes. */
export async function digestOfFile(path: string): Promise<{ sha256: string; size: number }> {
  const { size } = await stat(path);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return { sha256: hash.digest('hex'), size };
}
