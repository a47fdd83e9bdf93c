/**
 * The license signing key: LICENSE_SIGNING_KEY when set, else the one generated on first start and
 * kept with the data. Its public key is what the desktop app embeds.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createLicenseIssuer, generateSigningKey, type LicenseKeyFormat, publicKeyOf } from '../core/licensing/license.ts';
import type { LicenseIssuer, Logger, Storage } from '../core/ports/ports.ts';
import { ConfigError } from './config-error.ts';
import { openStorage } from './open-storage.ts';
import type { StorageSettings } from './storage-config.ts';

/** The name the generated key is kept under, as the core's default issuer keeps it. */
export const SIGNING_KEY_SECRET = 'license-signing-key';

/** A ready signing key. */
export interface SigningKey {
  issuer: LicenseIssuer;
  /** base64url of the raw 32-byte Ed25519 public key. */
  publicKey: string;
  source: 'LICENSE_SIGNING_KEY' | 'storage';
}

/**
 * Loads the signing key.
 *
 * @param fromEnv LICENSE_SIGNING_KEY, when set.
 * @param storage Where a generated key is kept.
 * @param format LICENSE_KEY_FORMAT: the format of the keys it signs.
 * @throws ConfigError when LICENSE_SIGNING_KEY is not a base64 PKCS#8 Ed25519 private key.
 */
export async function openSigningKey(fromEnv: string | undefined, storage: Storage, format: LicenseKeyFormat = 'v2'): Promise<SigningKey> {
  const pkcs8 = fromEnv ?? (await storage.secret(SIGNING_KEY_SECRET, generateSigningKey));
  try {
    return {
      issuer: await createLicenseIssuer(pkcs8, format),
      publicKey: await publicKeyOf(pkcs8),
      source: fromEnv ? 'LICENSE_SIGNING_KEY' : 'storage',
    };
  } catch {
    throw new ConfigError(
      fromEnv ? 'LICENSE_SIGNING_KEY is not a base64 PKCS#8 Ed25519 private key' : `the stored ${SIGNING_KEY_SECRET} is not an Ed25519 key`,
    );
  }
}

/** Persistent storage holds no signing key yet: the server has not started on it. */
export class NoStoredSigningKey extends Error {
  override name = 'NoStoredSigningKey';
}

const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Reads the signing key the server generated and kept in persistent storage, without creating one (a
 * command that only reads must not choose the server's key).
 *
 * @param settings The storage the server uses: PGlite or Postgres.
 * @returns The stored key, base64 PKCS#8.
 * @throws NoStoredSigningKey when there is none yet; ConfigError when a running server holds DATA_DIR.
 */
export async function readStoredSigningKey(settings: Exclude<StorageSettings, { kind: 'memory' }>): Promise<string> {
  if (settings.kind === 'pglite' && !existsSync(join(settings.dataDir, 'PG_VERSION'))) {
    throw new NoStoredSigningKey(`DATA_DIR ${settings.dataDir} holds no database yet`);
  }
  const storage = await openStorage(settings, { logger: quiet, background: false });
  try {
    return await storage.secret(SIGNING_KEY_SECRET, () => {
      throw new NoStoredSigningKey(`${describeWhere(settings)} holds no ${SIGNING_KEY_SECRET} yet`);
    });
  } finally {
    await storage.close();
  }
}

function describeWhere(settings: Exclude<StorageSettings, { kind: 'memory' }>): string {
  return settings.kind === 'pglite' ? `DATA_DIR ${settings.dataDir}` : `the database (schema ${settings.schema})`;
}
