/**
 * Base64url without padding (RFC 4648 section 5): voter ids, license keys, signatures.
 *
 * @module
 */

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
