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

async function signature(secret: string, content: Uint8Array<ArrayBuffer>): Promise<string> {
  const key = await crypto.subtle.importKey('raw', fromBase64(secret.slice(PREFIX.length)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'] as KeyUsage[]);
  return `v1,${toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', key, content)))}`;
}

/**
 * The three headers of one attempt. With a previous secret (a rotation's grace period) the signature
 * header holds both signatures, space-separated as Standard Webhooks allows: a receiver holding either
 * secret verifies it.
 */
export async function signatureHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
  previousSecret: string | null = null,
): Promise<Record<string, string>> {
  const content = new TextEncoder().encode(`${id}.${timestampSeconds}.${body}`);
  const signatures = await Promise.all([secret, ...(previousSecret === null ? [] : [previousSecret])].map((s) => signature(s, content)));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatures.join(' '),
  };
}
