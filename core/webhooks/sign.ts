/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>`, the
 * HMAC-SHA-256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's key, which is given as
 * `whsec_` and the key in base64. Web Crypto, so it runs on every runtime.
 *
 * @module
 */

const PREFIX = 'whsec_';

const toBase64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A new endpoint secret: `whsec_` and 24 random bytes in base64. */
export function createEndpointSecret(): string {
  return PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(24)));
}

/** The three headers of one attempt. */
export async function signatureHeaders(secret: string, id: string, timestampSeconds: number, body: string): Promise<Record<string, string>> {
  const key = await crypto.subtle.importKey('raw', fromBase64(secret.slice(PREFIX.length)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'] as KeyUsage[]);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${id}.${timestampSeconds}.${body}`));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${toBase64(new Uint8Array(mac))}`,
  };
}
