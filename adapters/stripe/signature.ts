/**
 * Stripe-Signature verification, as Stripe documents it: the header `t=<unix seconds>,v1=<hex>,...`
 * carries a timestamp and one or more HMAC-SHA-256 signatures (several while a secret is rolled) of
 * the exact text `${t}.${raw body}` under the endpoint secret. Only the v1 scheme counts; every v1
 * candidate is compared in constant time; the timestamp must lie within the tolerance of now.
 *
 * @module
 */

/** Stripe's default tolerance on the signed timestamp, in seconds. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The outcome of a check: ok, or why the notification is refused. */
export type SignatureVerdict = 'ok' | 'missing' | 'malformed' | 'mismatch' | 'stale';

const encoder = new TextEncoder();

/** The timestamp and the v1 signatures of a header; null when it has no usable timestamp or no v1. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const element of header.split(',')) {
    const equals = element.indexOf('=');
    if (equals < 0) continue;
    const prefix = element.slice(0, equals).trim();
    const value = element.slice(equals + 1).trim();
    if (prefix === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (prefix === 'v1') signatures.push(value);
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/** Compares two strings in time that depends on their length only, not on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % Math.max(b.length, 1));
  return diff === 0;
}

/** The hex HMAC-SHA-256 of `${timestamp}.` followed by the raw body bytes. */
export async function computeSignature(secret: string, timestamp: number, rawBody: Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const prefix = encoder.encode(`${timestamp}.`);
  const signed = new Uint8Array(prefix.length + rawBody.length);
  signed.set(prefix);
  signed.set(rawBody, prefix.length);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, signed));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Verifies a Stripe-Signature header.
 *
 * @param header The header value, or undefined when absent.
 * @param rawBody The body exactly as received.
 * @param secret The endpoint's signing secret (`whsec_...`), used as is.
 * @param nowSeconds The current time in seconds (from the injected clock).
 * @param toleranceSeconds How far the signed timestamp may lie from now; 300 by default.
 * @returns 'ok', or the reason to refuse.
 */
export async function verifyStripeSignature(
  header: string | undefined,
  rawBody: Uint8Array,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): Promise<SignatureVerdict> {
  if (header === undefined || header.trim() === '') return 'missing';
  const parsed = parseSignatureHeader(header);
  if (!parsed) return 'malformed';
  const expected = await computeSignature(secret, parsed.timestamp, rawBody);
  let matched = false;
  for (const candidate of parsed.signatures) {
    // No early exit: every candidate is compared, so the time taken says nothing about which one matched.
    if (constantTimeEqual(candidate, expected)) matched = true;
  }
  if (!matched) return 'mismatch';
  return Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds ? 'stale' : 'ok';
}
