/**
 * The license signing key: LICENSE_SIGNING_KEY when set, else the one generated on first start and
 * kept with the data. Its public key is what the desktop app embeds.
 *
 * @module
 */
import { createLicenseIssuer, generateSigningKey, publicKeyOf } from '../core/license.ts';
import type { LicenseIssuer, Storage } from '../core/ports.ts';
import { ConfigError } from './config-error.ts';

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
 * @throws ConfigError when LICENSE_SIGNING_KEY is not a base64 PKCS#8 Ed25519 private key.
 */
export async function openSigningKey(fromEnv: string | undefined, storage: Storage): Promise<SigningKey> {
  const pkcs8 = fromEnv ?? (await storage.secret(SIGNING_KEY_SECRET, generateSigningKey));
  try {
    return {
      issuer: await createLicenseIssuer(pkcs8),
      publicKey: await publicKeyOf(pkcs8),
      source: fromEnv ? 'LICENSE_SIGNING_KEY' : 'storage',
    };
  } catch {
    throw new ConfigError(
      fromEnv ? 'LICENSE_SIGNING_KEY is not a base64 PKCS#8 Ed25519 private key' : `the stored ${SIGNING_KEY_SECRET} is not an Ed25519 key`,
    );
  }
}
