/**
 * License keys of format version 2, short enough to read out: 11 payload bytes and the 64-byte Ed25519
 * signature over them, written in Crockford base32 (120 characters) in dash-separated groups of 5.
 *
 * Payload: byte 0 the tag (0x10 a license, 0xC8 a payment-simulator key: the text starts with `2` or
 * `S`), byte 1 what was bought (bit 0 the product, bits 1-2 the SKU), bytes 2-3 the issue day (days since
 * 2020-01-01 UTC, big-endian), bytes 4-10 the first 7 bytes of SHA-256 of the checkout session id. The tag
 * is signed, so a simulator key can never pass as a license.
 *
 * @module
 */
import type { CheckoutSku } from '../ports/ports.ts';
import { fromCrockfordBase32, groupCharacters, toCrockfordBase32 } from './crockford-base32.ts';

/** What a version-2 key says. */
export interface CompactLicensePayload {
  v: 2;
  product: 'standard' | 'plus';
  sku: CheckoutSku;
  /** The first 7 bytes of SHA-256 of the checkout session id, hex: support finds the session by it. */
  sidHash: string;
  /** The issue day, UTC, `YYYY-MM-DD`. */
  issuedOn: string;
}

/** The first byte of a license; of a payment-simulator key. */
export const LICENSE_TAG = 0x10;
export const SIMULATOR_TAG = 0xc8;
const PAYLOAD_BYTES = 11;
const SIGNATURE_BYTES = 64;
const SID_HASH_BYTES = 7;
const EPOCH_MS = Date.UTC(2020, 0, 1);
const DAY_MS = 86_400_000;
const PRODUCTS = ['standard', 'plus'] as const;
const SKUS = ['standard', 'plus_addon', 'plus_bundle'] as const;

/** The first bytes of SHA-256 of a session id, as stored in a key and printed by `license verify`. */
export async function sessionIdHash(sessionId: string): Promise<Uint8Array> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(sessionId));
  return new Uint8Array(digest, 0, SID_HASH_BYTES);
}

/**
 * The signed bytes of a version-2 key.
 *
 * @throws RangeError when the issue time is before 2020 or after 2199 (a wrong clock).
 */
export async function compactPayload(claims: {
  sessionId: string;
  sku: CheckoutSku;
  product: 'standard' | 'plus';
  issuedAt: number;
  simulated: boolean;
}): Promise<Uint8Array<ArrayBuffer>> {
  const day = Math.floor((claims.issuedAt - EPOCH_MS) / DAY_MS);
  if (!(day >= 0 && day <= 0xffff)) throw new RangeError(`cannot date a license key at ${claims.issuedAt} ms`);
  const payload = new Uint8Array(PAYLOAD_BYTES);
  payload[0] = claims.simulated ? SIMULATOR_TAG : LICENSE_TAG;
  payload[1] = PRODUCTS.indexOf(claims.product) | (SKUS.indexOf(claims.sku) << 1);
  payload[2] = day >> 8;
  payload[3] = day & 0xff;
  payload.set(await sessionIdHash(claims.sessionId), 4);
  return payload;
}

/** The key text of a payload and its signature: base32 in groups of 5. */
export function formatCompactKey(payload: Uint8Array, signature: Uint8Array): string {
  const bytes = new Uint8Array(payload.length + signature.length);
  bytes.set(payload);
  bytes.set(signature, payload.length);
  return groupCharacters(toCrockfordBase32(bytes));
}

/**
 * Splits a typed version-2 key into its payload and signature (nothing is verified yet).
 *
 * @param typed The key, in any case, with or without dashes and spaces.
 * @returns null when it is not base32 of the right length.
 */
export function parseCompactKey(typed: string): { payload: Uint8Array<ArrayBuffer>; signature: Uint8Array<ArrayBuffer> } | null {
  const bytes = fromCrockfordBase32(typed);
  if (!bytes || bytes.length !== PAYLOAD_BYTES + SIGNATURE_BYTES) return null;
  return { payload: bytes.slice(0, PAYLOAD_BYTES), signature: bytes.slice(PAYLOAD_BYTES) };
}

/**
 * Reads a payload whose signature holds.
 *
 * @param tag The tag the caller accepts: LICENSE_TAG, or SIMULATOR_TAG to recognise a simulator key.
 * @returns The claims, or null for another tag or an unknown product or SKU.
 */
export function readCompactPayload(payload: Uint8Array, tag: number): CompactLicensePayload | null {
  const what = payload[1]!;
  const product = PRODUCTS[what & 1];
  const sku = SKUS[what >> 1];
  if (payload[0] !== tag || !product || !sku) return null;
  const day = (payload[2]! << 8) | payload[3]!;
  const sidHash = Array.from(payload.subarray(4), (byte) => byte.toString(16).padStart(2, '0')).join('');
  return { v: 2, product, sku, sidHash, issuedOn: new Date(EPOCH_MS + day * DAY_MS).toISOString().slice(0, 10) };
}
