/**
 * Signed license keys the desktop app verifies offline with the Ed25519 public key alone. New keys are
 * version 2 (`license-compact.ts`: 120 base32 characters in groups of 5). Version-1 keys,
 * `key/<base64url(JSON payload)>.<base64url(signature)>` signed over the exact text before the `.`, keep
 * verifying. A payment-simulator key is marked inside the signed bytes (`sim/` in version 1, the tag byte in
 * version 2), so it can never be turned into a license.
 *
 * @module
 */
import {
  type CompactLicensePayload,
  compactPayload,
  formatCompactKey,
  LICENSE_TAG,
  parseCompactKey,
  readCompactPayload,
  SIMULATOR_TAG,
} from './license-compact.ts';
import type { LicenseIssuer } from '../ports/ports.ts';
import { importEd25519Key } from '../formats/ed25519-pkcs8.ts';

export type { CompactLicensePayload };

/** What a version-1 license key says. */
export interface LegacyLicensePayload {
  v: 1;
  product: 'standard' | 'plus';
  sku: string;
  /** The checkout session id. */
  sid: string;
  /** Issue time, seconds since the epoch. */
  iat: number;
}

/** What a license key says, by format version. */
export type LicensePayload = LegacyLicensePayload | CompactLicensePayload;

const PREFIX = 'key/';
/** The prefix of keys from sessions "paid" in the payment simulator: no money was taken for them. */
export { fromBase64Url, toBase64Url } from '../formats/base64url.ts';
import { fromBase64Url, toBase64Url } from '../formats/base64url.ts';

export const SIMULATOR_KEY_PREFIX = 'sim/';
const encoder = new TextEncoder();

/** A new Ed25519 signing key as base64 PKCS#8, the form LICENSE_SIGNING_KEY takes. */
export async function generateSigningKey(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  return btoa(String.fromCharCode(...pkcs8));
}

/** The raw 32-byte public key of a base64 PKCS#8 private key, as base64url: what the desktop app embeds. */
export async function publicKeyOf(pkcs8Base64: string): Promise<string> {
  return (await importEd25519Key(pkcs8Base64)).publicKey;
}

/** The key formats an issuer can sign: 2 (the default), or 1 for desktop apps without the version-2 verifier. */
export type LicenseKeyFormat = 'v1' | 'v2';

/**
 * Creates a license issuer.
 *
 * @param pkcs8Base64 The Ed25519 private key, base64 PKCS#8.
 * @param format The format of the keys it signs; version 2 by default. Version 1 (`key/...`, `sim/...`)
 *   keeps installed desktop apps that verify only version 1 working until they ship the new verifier.
 */
export async function createLicenseIssuer(pkcs8Base64: string, format: LicenseKeyFormat = 'v2'): Promise<LicenseIssuer> {
  const { privateKey: key, publicKey } = await importEd25519Key(pkcs8Base64);
  // Update answers are signed with the same key: their signature base can never be a license payload (docs/decisions.md).
  const signer = {
    keyId: publicKey,
    sign: async (data: Uint8Array) => new Uint8Array(await crypto.subtle.sign('Ed25519', key, data as Uint8Array<ArrayBuffer>)),
  };
  if (format === 'v1') {
    return {
      signer,
      async issue({ sessionId, sku, product, issuedAt, simulated }) {
        const payload: LegacyLicensePayload = { v: 1, product, sku, sid: sessionId, iat: Math.floor(issuedAt / 1000) };
        const signed = (simulated ? SIMULATOR_KEY_PREFIX : PREFIX) + toBase64Url(encoder.encode(JSON.stringify(payload)));
        const signature = new Uint8Array(await crypto.subtle.sign('Ed25519', key, encoder.encode(signed)));
        return `${signed}.${toBase64Url(signature)}`;
      },
    };
  }
  return {
    signer,
    async issue(claims) {
      const payload = await compactPayload(claims);
      return formatCompactKey(payload, new Uint8Array(await crypto.subtle.sign('Ed25519', key, payload)));
    },
  };
}

/** Whether a key says it comes from the payment simulator (by its label; the signature is not checked). */
export function looksLikeSimulatorKey(licenseKey: string): boolean {
  const text = licenseKey.trim();
  return text.startsWith(SIMULATOR_KEY_PREFIX) || parseCompactKey(text)?.payload[0] === SIMULATOR_TAG;
}

/**
 * Verifies a license key of either format with the public key alone.
 *
 * @param licenseKey The key as issued; a version-2 key also as typed (any case, dashes and spaces anywhere).
 * @param publicKeyBase64Url The raw 32-byte public key, base64url.
 * @param prefix `key/` (a license); `sim/` only to recognise a simulator key, never to grant a license.
 * @returns The payload when the signature holds, else null.
 */
export async function verifyLicenseKey(licenseKey: string, publicKeyBase64Url: string, prefix = PREFIX): Promise<LicensePayload | null> {
  const text = licenseKey.trim();
  try {
    const key = await crypto.subtle.importKey('raw', fromBase64Url(publicKeyBase64Url), { name: 'Ed25519' }, false, ['verify']);
    if (text.startsWith(PREFIX) || text.startsWith(SIMULATOR_KEY_PREFIX)) return await verifyLegacyKey(text, key, prefix);
    const parts = parseCompactKey(text);
    if (!parts || !(await crypto.subtle.verify('Ed25519', key, parts.signature, parts.payload))) return null;
    return readCompactPayload(parts.payload, prefix === SIMULATOR_KEY_PREFIX ? SIMULATOR_TAG : LICENSE_TAG);
  } catch {
    return null;
  }
}

async function verifyLegacyKey(licenseKey: string, key: CryptoKey, prefix: string): Promise<LegacyLicensePayload | null> {
  const dot = licenseKey.lastIndexOf('.');
  if (!licenseKey.startsWith(prefix) || dot < 0) return null;
  const signed = licenseKey.slice(0, dot);
  const ok = await crypto.subtle.verify('Ed25519', key, fromBase64Url(licenseKey.slice(dot + 1)), encoder.encode(signed));
  if (!ok) return null;
  return JSON.parse(new TextDecoder().decode(fromBase64Url(signed.slice(prefix.length)))) as LegacyLicensePayload;
}
