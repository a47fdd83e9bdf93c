/**
 * An Ed25519 private key as the server is given and keeps it, base64 PKCS#8 (LICENSE_SIGNING_KEY,
 * UPDATES_ONLINE_KEY, the update files' root keys), imported with Web Crypto.
 *
 * @module
 */

/** An imported key: what signs, and its raw 32-byte public key as base64url (the JWK's `x`). */
export interface Ed25519Key {
  privateKey: CryptoKey;
  publicKey: string;
}

/**
 * Imports a base64 PKCS#8 Ed25519 private key to sign with.
 *
 * @param pkcs8Base64 The key; white space around it is ignored.
 * @throws Error when it is not base64 PKCS#8 of an Ed25519 key.
 */
export async function importEd25519Key(pkcs8Base64: string): Promise<Ed25519Key> {
  const der = Uint8Array.from(atob(pkcs8Base64.trim()), (c) => c.charCodeAt(0));
  const privateKey = await crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, true, ['sign']);
  const { x } = await crypto.subtle.exportKey('jwk', privateKey);
  if (!x) throw new Error('not an Ed25519 key');
  return { privateKey, publicKey: x };
}
