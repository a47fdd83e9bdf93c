/**
 * The online key of the update files (issue 54, docs/updates.md "Keys"): UPDATES_ONLINE_KEY when set,
 * else one generated on first start and kept in storage, shared by every instance on the database. It
 * signs timestamp, snapshot and targets; it signs nothing until a root names it (the root key, kept
 * offline, signs roots only).
 *
 * @module
 */
import { generateSigningKey } from '../core/licensing/license.ts';
import type { Storage } from '../core/ports/ports.ts';
import { createTufSigner, type TufSigner } from '../core/tuf/keys.ts';
import { ConfigError } from './config-error.ts';

/** The name the generated key is kept under. */
export const ONLINE_KEY_SECRET = 'updates-online-key';

/** A ready online key. */
export interface OnlineKey {
  signer: TufSigner;
  source: 'UPDATES_ONLINE_KEY' | 'storage';
}

/**
 * Loads the online key.
 *
 * @param fromEnv UPDATES_ONLINE_KEY, when set: base64 PKCS#8 Ed25519.
 * @param storage Where a generated key is kept.
 * @throws ConfigError when the key is not an Ed25519 private key.
 */
export async function openOnlineKey(fromEnv: string | undefined, storage: Storage): Promise<OnlineKey> {
  const pkcs8 = fromEnv ?? (await storage.secret(ONLINE_KEY_SECRET, generateSigningKey));
  try {
    return { signer: await createTufSigner(pkcs8), source: fromEnv ? 'UPDATES_ONLINE_KEY' : 'storage' };
  } catch {
    throw new ConfigError(fromEnv ? 'UPDATES_ONLINE_KEY is not a base64 PKCS#8 Ed25519 private key' : `the stored ${ONLINE_KEY_SECRET} is not an Ed25519 key`);
  }
}
