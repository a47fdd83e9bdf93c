/**
 * Signed license keys: `key/<base64url(payload)>.<base64url(signature)>`, Ed25519 over the exact text
 * `key/<base64url(payload)>`, so the desktop app can verify a key offline with the public key alone.
 * Keys of the payment simulator start with `sim/` instead: the signature covers the prefix, so such a key
 * can never be turned into a `key/` one, and an app that accepts only `key/` refuses it.
 *
 * @module
 */
import type { LicenseIssuer } from './ports.ts';

/** What a license key says. */
export interface LicensePayload {
  v: 1;
  product: 'standard' | 'plus';
  sku: string;
  /** The checkout session id. */
  sid: string;
  /** Issue time, seconds since the epoch. */
  iat: number;
}

const PREFIX = 'key/';
/** The prefix of keys from sessions "paid" in the payment simulator: no money was taken for them. */
export const SIMULATOR_KEY_PREFIX = 'sim/';
const encoder = new TextEncoder();

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Base64url without padding (RFC 4648 section 5), three bytes at a time: it runs for every new voter. */
export function toBase64Url(bytes: Uint8Array): string {
  let text = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    text += BASE64URL[n >> 18]! + BASE64URL[(n >> 12) & 63]! + BASE64URL[(n >> 6) & 63]! + BASE64URL[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    text += BASE64URL[n >> 18]! + BASE64URL[(n >> 12) & 63]!;
    if (i + 1 < bytes.length) text += BASE64URL[(n >> 6) & 63]!;
  }
  return text;
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** A new Ed25519 signing key as base64 PKCS#8, the form LICENSE_SIGNING_KEY takes. */
export async function generateSigningKey(): Promise<string> {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey));
  return btoa(String.fromCharCode(...pkcs8));
}

/** Imports a base64 PKCS#8 Ed25519 private key. */
async function importSigningKey(pkcs8Base64: string): Promise<CryptoKey> {
  const der = Uint8Array.from(atob(pkcs8Base64.trim()), (c) => c.charCodeAt(0));
  return crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, true, ['sign']);
}

/** The raw 32-byte public key of a base64 PKCS#8 private key, as base64url: what the desktop app embeds. */
export async function publicKeyOf(pkcs8Base64: string): Promise<string> {
  const key = await importSigningKey(pkcs8Base64);
  const jwk = await crypto.subtle.exportKey('jwk', key);
  if (!jwk.x) throw new Error('not an Ed25519 key');
  return jwk.x;
}

/**
 * Creates a license issuer.
 *
 * @param pkcs8Base64 The Ed25519 private key, base64 PKCS#8.
 */
export async function createLicenseIssuer(pkcs8Base64: string): Promise<LicenseIssuer> {
  const key = await importSigningKey(pkcs8Base64);
  return {
    async issue({ sessionId, sku, product, issuedAt, simulated }) {
      const payload: LicensePayload = { v: 1, product, sku, sid: sessionId, iat: Math.floor(issuedAt / 1000) };
      const signed = (simulated ? SIMULATOR_KEY_PREFIX : PREFIX) + toBase64Url(encoder.encode(JSON.stringify(payload)));
      const signature = new Uint8Array(await crypto.subtle.sign('Ed25519', key, encoder.encode(signed)));
      return `${signed}.${toBase64Url(signature)}`;
    },
  };
}

/**
 * Verifies a license key with the public key alone.
 *
 * @param licenseKey The key as issued.
 * @param publicKeyBase64Url The raw 32-byte public key, base64url.
 * @param prefix `key/` (a license); `sim/` only to recognise a simulator key, never to grant a license.
 * @returns The payload when the signature holds, else null.
 */
export async function verifyLicenseKey(licenseKey: string, publicKeyBase64Url: string, prefix = PREFIX): Promise<LicensePayload | null> {
  const dot = licenseKey.lastIndexOf('.');
  if (!licenseKey.startsWith(prefix) || dot < 0) return null;
  try {
    const signed = licenseKey.slice(0, dot);
    const key = await crypto.subtle.importKey('raw', fromBase64Url(publicKeyBase64Url), { name: 'Ed25519' }, false, [
      'verify',
    ]);
    const ok = await crypto.subtle.verify('Ed25519', key, fromBase64Url(licenseKey.slice(dot + 1)), encoder.encode(signed));
    if (!ok) return null;
    return JSON.parse(new TextDecoder().decode(fromBase64Url(signed.slice(prefix.length)))) as LicensePayload;
  } catch {
    return null;
  }
}
