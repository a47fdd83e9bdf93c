/**
 * One-click unsubscribe (RFC 8058) from the shipped-request mails: each mail names an address that stops
 * every such mail to its recipient. The token is the address (base64url) and a keyed hash of it under the
 * server's voter secret, so it cannot be made for another address, and the server keeps nothing per mail.
 *
 * @module
 */
import { createKeyedHash } from '../clients/keyed-hash.ts';
import { fromBase64Url, toBase64Url } from '../formats/base64url.ts';

/** What makes and reads the unsubscribe tokens of one server. */
export interface UnsubscribeTokens {
  /** The token of an address (lower-cased first). */
  tokenFor(email: string): string;
  /** The address a token was made for, or null when it is not one of this server's tokens. */
  emailOf(token: string): string | null;
}

/** Hash characters kept in a token: 22 of base64url, 132 bits. */
const HASH_LENGTH = 22;
const TOKEN = /^([A-Za-z0-9_-]{1,700})\.([A-Za-z0-9_-]{22})$/;

/**
 * Creates the tokens.
 *
 * @param secret The server secret (the voter secret): the same on every instance.
 */
export function createUnsubscribeTokens(secret: string): UnsubscribeTokens {
  const hash = createKeyedHash(secret);
  const signed = (email: string) => hash(`unsubscribe from shipped-request mails\n${email}`).slice(0, HASH_LENGTH);
  const encoder = new TextEncoder();
  return {
    tokenFor(email) {
      const lower = email.toLowerCase();
      return `${toBase64Url(encoder.encode(lower))}.${signed(lower)}`;
    },
    emailOf(token) {
      const parts = TOKEN.exec(token);
      if (!parts) return null;
      let email: string;
      try {
        email = new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(parts[1]!));
      } catch {
        return null;
      }
      const expected = signed(email);
      let difference = 0;
      for (let i = 0; i < HASH_LENGTH; i++) difference |= expected.charCodeAt(i) ^ parts[2]!.charCodeAt(i);
      return difference === 0 && email === email.toLowerCase() ? email : null;
    },
  };
}
