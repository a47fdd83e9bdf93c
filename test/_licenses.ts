/** License-key fixtures: the claims a version-2 key should carry, and version-1 keys as issued before it. */
import { createHash } from 'node:crypto';
import { type CompactLicensePayload, type LegacyLicensePayload, toBase64Url } from '../core/licensing/license.ts';

/**
 * What `verifyLicenseKey` reads from a version-2 key, computed here independently of the issuer.
 *
 * @param issuedAt The issuer's clock, ms.
 */
export function compactClaims(product: 'standard' | 'plus', sku: CompactLicensePayload['sku'], sessionId: string, issuedAt: number): CompactLicensePayload {
  const sidHash = createHash('sha256').update(sessionId).digest('hex').slice(0, 14);
  return { v: 2, product, sku, sidHash, issuedOn: new Date(issuedAt).toISOString().slice(0, 10) };
}

/**
 * Issues a version-1 key exactly as the former `createLicenseIssuer` did.
 *
 * @param pkcs8Base64 The Ed25519 private key, base64 PKCS#8.
 */
export async function issueLegacyLicenseKey(
  pkcs8Base64: string,
  claims: { sessionId: string; sku: LegacyLicensePayload['sku']; product: 'standard' | 'plus'; issuedAt: number; simulated: boolean },
): Promise<string> {
  const der = Uint8Array.from(atob(pkcs8Base64), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, false, ['sign']);
  const payload: LegacyLicensePayload = { v: 1, product: claims.product, sku: claims.sku, sid: claims.sessionId, iat: Math.floor(claims.issuedAt / 1000) };
  const signed = (claims.simulated ? 'sim/' : 'key/') + toBase64Url(new TextEncoder().encode(JSON.stringify(payload)));
  const signature = new Uint8Array(await crypto.subtle.sign('Ed25519', key, new TextEncoder().encode(signed)));
  return `${signed}.${toBase64Url(signature)}`;
}

/** A version-2 key of the payment simulator as the API returns it: tag 0xC8 makes it start with `S0`. */
export const SIMULATOR_KEY_SHAPE = /^S0[0-9A-HJKMNP-TV-Z]{3}(-[0-9A-HJKMNP-TV-Z]{5}){23}$/;
