/**
 * An independent check of signed update answers for the tests: the signature base rebuilt from the rules
 * of RFC 9421 (section 2.5) and the answer's own headers, verified with node:crypto's Ed25519, and the
 * Content-Digest of RFC 9530 recomputed; none of the code that signs.
 */
import { createHash, createHmac, createPublicKey, verify } from 'node:crypto';

/** Parses `label=(<components>);<params>` of a Signature-Input as RFC 8941 writes it (the subset used here). */
export function parseSignatureInput(text: string) {
  const match = /^([a-z][a-z0-9_-]*)=\(((?:"[^"]*"(?: "[^"]*")*)?)\)((?:;[a-z]+=(?:\d+|"[^"]*"))*)$/.exec(text);
  if (!match) return null;
  const components = [...match[2]!.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  const params = Object.fromEntries(
    [...match[3]!.matchAll(/;([a-z]+)=(\d+|"[^"]*")/g)].map((m) => [m[1]!, m[2]!.startsWith('"') ? m[2]!.slice(1, -1) : Number(m[2])]),
  );
  return { label: match[1]!, components, params, paramsText: `(${match[2]})${match[3]}` };
}

/**
 * A check of the app's that docs/updates.md and docs/licensing.md tell it to make: the careless apps of
 * test/server/scenarios-careless.test.ts each skip one.
 */
export const APP_CHECKS = [
  'signature',
  'pinned-key',
  'algorithm',
  'tag',
  'covered',
  'expires',
  'created',
  'content-digest',
  'release-version',
  'newer-only',
  'user-agent',
  'installer-required',
  'installer-digest',
  'critical-signed',
  'retry-after',
  'nonce',
  'key-digest',
] as const;
export type AppCheck = (typeof APP_CHECKS)[number];

/** What the app expects of an answer besides a good signature: its meaning, the nonce it sent, the version it was offered. */
export interface Expected {
  /** The RFC 9421 `tag`: `update` for GET /version and GET /download, `license-standing` for POST /licenses/validate. */
  tag: string;
  /** The nonce the app sent: the signature must carry exactly it. */
  nonce?: string;
  /** For a redirect to the MSI: the version GET /version offered, which the signed Release-Version must name. */
  version?: string;
  /** The one check a careless app skips (it verifies with the key keyid names, lets alg choose, ...). */
  careless?: AppCheck;
}

/**
 * The app's check, written from the RFCs: the signature holds over the base rebuilt from the answer, it
 * covers @status first and the body's digest (or Location), its tag is the one expected (and its nonce the
 * one sent, the Release-Version the one offered, when the app has one), it has not expired, and
 * Content-Digest is the body's SHA-256. Answers why not, or null when the answer is genuine.
 */
export function refusal(
  answer: { status: number; headers: Record<string, string>; body: string },
  publicKey: string,
  nowSeconds: number,
  expected: Expected = { tag: 'update' },
): string | null {
  const input = parseSignatureInput(answer.headers['signature-input'] ?? '');
  if (!input) return 'no Signature-Input';
  const { label, components, params } = input;
  const skips = (check: AppCheck) => expected.careless === check;
  // A careless app verifies with the key the answer names, or lets the answer name its algorithm.
  const keyId = skips('pinned-key') && typeof params['keyid'] === 'string' ? params['keyid'] : publicKey;
  if ((params['alg'] !== 'ed25519' && !skips('algorithm')) || (params['keyid'] !== publicKey && !skips('pinned-key'))) return 'another algorithm or key';
  if (params['tag'] !== expected.tag && !skips('tag')) return 'another tag';
  if (expected.nonce !== undefined && params['nonce'] !== expected.nonce && !skips('nonce')) return 'another nonce';
  if (!skips('covered')) {
    if (components[0] !== '@status') return '@status is not covered first';
    if (!components.includes(answer.status === 200 ? 'content-digest' : 'location')) return 'the body or the Location is not covered';
  }
  const lines = components.map((name) => {
    const value = name === '@status' ? String(answer.status) : answer.headers[name];
    if (value === undefined) throw new Error(`covered ${name} is missing`);
    return `"${name}": ${value.trim()}`;
  });
  lines.push(`"@signature-params": ${input.paramsText}`);
  const signature = new RegExp(`^${label}=:([A-Za-z0-9+/=]+):$`).exec(answer.headers['signature'] ?? '')?.[1];
  if (!signature) return 'no Signature';
  const base = Buffer.from(lines.join('\n'), 'ascii');
  const holds = skips('algorithm') && params['alg'] === 'hmac-sha256'
    ? createHmac('sha256', Buffer.from(keyId, 'base64url')).update(base).digest().equals(Buffer.from(signature, 'base64'))
    : verify(null, base, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keyId }, format: 'jwk' }), Buffer.from(signature, 'base64'));
  if (!holds && !skips('signature')) return 'the signature does not hold';
  if ((typeof params['expires'] !== 'number' || nowSeconds > params['expires']) && !skips('expires')) return 'expired';
  // docs/updates.md: accepted from 5 minutes before created (the recipe's Skew).
  if ((typeof params['created'] !== 'number' || params['created'] > nowSeconds + 300) && !skips('created')) return 'from the future';
  if (
    expected.version !== undefined && !skips('release-version') &&
    (!components.includes('release-version') || answer.headers['release-version'] !== expected.version)
  ) {
    return 'another version';
  }
  if (answer.status === 200 && !skips('content-digest')) {
    const digest = `sha-256=:${createHash('sha256').update(answer.body, 'utf8').digest('base64')}:`;
    if (answer.headers['content-digest'] !== digest) return 'the body does not match Content-Digest';
  }
  return null;
}

/**
 * The app's check of a license standing (POST /licenses/validate), from the same rules: the update answer's
 * check with the tag `license-standing` (and the nonce the app sent, if it sent one), and the signature
 * covers License-Key-Digest, the SHA-256 of the key the app sent. Null: genuine.
 */
export function licenseRefusal(
  answer: { status: number; headers: Record<string, string>; body: string },
  publicKey: string,
  nowSeconds: number,
  licenseKey: string,
  nonce?: string,
  careless?: AppCheck,
): string | null {
  const expected: Expected = { tag: 'license-standing', ...(nonce === undefined ? {} : { nonce }), ...(careless === undefined ? {} : { careless }) };
  const refused = refusal(answer, publicKey, nowSeconds, expected);
  if (refused !== null) return refused;
  if (careless === 'key-digest') return null;
  if (!parseSignatureInput(answer.headers['signature-input']!)!.components.includes('license-key-digest')) return 'the key is not covered';
  if (answer.headers['license-key-digest'] !== `sha-256=:${createHash('sha256').update(licenseKey, 'utf8').digest('base64')}:`) {
    return 'an answer about another key';
  }
  return null;
}
