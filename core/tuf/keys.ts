/**
 * TUF's Ed25519 keys (TUF 1.0 section 4.2): the key object metadata lists, its keyid, signing and
 * verifying with Web Crypto. The private keys are base64 PKCS#8 (core/formats/ed25519-pkcs8.ts), as
 * core/licensing/license.ts makes them (`generateSigningKey`).
 *
 * @module
 */
import { fromBase64Url } from '../formats/base64url.ts';
import { importEd25519Key } from '../formats/ed25519-pkcs8.ts';
import { fromHex, isHex, toHex } from '../formats/hex.ts';
import { canonicalJson } from './canonical-json.ts';

/** An Ed25519 public key as TUF metadata lists it: the raw 32 bytes in lower-case hex. */
export interface TufKey {
  keytype: 'ed25519';
  scheme: 'ed25519';
  keyval: { public: string };
}

/** Signs for one key. */
export interface TufSigner {
  /** The key's keyid (`keyIdOf`). */
  keyid: string;
  key: TufKey;
  /** The Ed25519 signature of bytes (64 bytes). */
  sign(bytes: Uint8Array): Promise<Uint8Array>;
}

const encoder = new TextEncoder();

/** The lower-case hex SHA-256 of bytes. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/** The TUF key of a raw Ed25519 public key. */
export function tufKeyOf(publicKey: Uint8Array): TufKey {
  return { keytype: 'ed25519', scheme: 'ed25519', keyval: { public: toHex(publicKey) } };
}

/**
 * A key's keyid as TUF 1.0 computes it: the hex SHA-256 of the key object's canonical JSON.
 *
 * @param key The key, with no fields besides keytype, scheme and keyval.
 */
export function keyIdOf(key: TufKey): Promise<string> {
  return sha256Hex(encoder.encode(canonicalJson(key)));
}

/**
 * Creates the signer of an Ed25519 private key.
 *
 * @param pkcs8Base64 The private key, base64 PKCS#8.
 */
export async function createTufSigner(pkcs8Base64: string): Promise<TufSigner> {
  const { privateKey, publicKey } = await importEd25519Key(pkcs8Base64);
  const key = tufKeyOf(fromBase64Url(publicKey));
  return {
    keyid: await keyIdOf(key),
    key,
    sign: async (bytes) => new Uint8Array(await crypto.subtle.sign('Ed25519', privateKey, bytes as Uint8Array<ArrayBuffer>)),
  };
}

/**
 * Whether a signature (hex) is the key's Ed25519 signature of bytes.
 *
 * @returns false also when the key or the signature is malformed.
 */
export async function verifyTufSignature(key: TufKey, bytes: Uint8Array, sigHex: string): Promise<boolean> {
  if (key.keytype !== 'ed25519' || key.scheme !== 'ed25519') return false;
  if (!isHex(key.keyval.public) || key.keyval.public.length !== 64 || !isHex(sigHex) || sigHex.length !== 128) return false;
  try {
    const publicKey = await crypto.subtle.importKey('raw', fromHex(key.keyval.public), { name: 'Ed25519' }, false, ['verify']);
    return await crypto.subtle.verify('Ed25519', publicKey, fromHex(sigHex), bytes as Uint8Array<ArrayBuffer>);
  } catch {
    return false;
  }
}
