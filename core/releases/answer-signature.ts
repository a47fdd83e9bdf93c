/**
 * Signed update answers: RFC 9421 HTTP Message Signatures with Ed25519 over the status and the headers an
 * answer names (a Content-Digest of the body, or the Location; the installer's digest and size, the notes
 * address, the critical flag), signed with the license key the desktop app already embeds
 * (docs/updates.md, and docs/decisions.md for why a signature base never verifies as a license key).
 *
 * A signature is made once per distinct answer and time window, never per request: `created` is the
 * start of the window (60 s by default) and `expires` is `created` plus the lifetime (10 minutes by
 * default), so every answer of one window with the same covered values carries the same signature, and a
 * signature is asked of the key at most once per window for each of them (concurrent requests share it).
 *
 * Each signature says what it means in the RFC 9421 `tag` parameter (`update` or `license-standing`), so that
 * one kind of answer never verifies as the other, and carries the caller's `nonce` when it sent one, so that
 * an answer saved earlier does not verify for a request that asked with a fresh nonce.
 *
 * @module
 */
import type { Clock, MaybePromise } from '../ports/ports.ts';

/** Signs bytes with the Ed25519 key whose public half (base64url) is `keyId`. */
export type { AnswerSigner } from '../ports/port-types.ts';
import type { AnswerSigner } from '../ports/port-types.ts';

/** The covered fields of an answer, after @status: lower-case header names and their values, in order. */
export type CoveredFields = readonly (readonly [string, string])[];

/** The two headers a signed answer carries. */
export interface SignatureHeaders {
  'signature-input': string;
  signature: string;
}

/** What an answer means (RFC 9421 `tag`): an update answer, or a license key's standing. A verifier that expects one refuses the other. */
export type SignatureTag = 'update' | 'license-standing';

/** What a signature is about besides its covered fields: its tag, and the caller's nonce when it sent one. */
export interface SignatureMeaning {
  tag: SignatureTag;
  /** The caller's nonce (RFC 9421 `nonce`): base64url characters only, so that it needs no escaping in a quoted string. */
  nonce: string | null;
}

/** The meaning of the answers of GET /version and GET /download. */
export const UPDATE_ANSWER: SignatureMeaning = { tag: 'update', nonce: null };

export interface SignatureParams extends SignatureMeaning {
  created: number;
  expires: number;
  keyId: string;
}

const MAX_SIGNED = 1024;

/** The label of the one signature an answer carries. */
export const SIGNATURE_LABEL = 'update';

/**
 * The inner list and parameters of the signature (RFC 9421 section 2.3): what `Signature-Input` holds
 * after the label, and the value of the last line of the signature base.
 */
export function signatureParams(fields: CoveredFields, params: SignatureParams): string {
  const names = ['"@status"', ...fields.map(([name]) => `"${name}"`)].join(' ');
  const nonce = params.nonce === null ? '' : `;nonce="${params.nonce}"`;
  return `(${names});created=${params.created};expires=${params.expires}${nonce};keyid="${params.keyId}";alg="ed25519";tag="${params.tag}"`;
}

/** The signature base (RFC 9421 section 2.5): one line per covered component, then @signature-params, no final newline. */
export function signatureBase(status: number, fields: CoveredFields, params: SignatureParams): string {
  const lines = [`"@status": ${status}`, ...fields.map(([name, value]) => `"${name}": ${value.trim()}`)];
  lines.push(`"@signature-params": ${signatureParams(fields, params)}`);
  return lines.join('\n');
}

const encoder = new TextEncoder();

/** Standard base64 (with padding), as structured-field byte sequences take it. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A digest header value of RFC 9530: `sha-256=:<base64>:`. */
export function digestField(sha256: Uint8Array): string {
  return `sha-256=:${toBase64(sha256)}:`;
}

/** The Content-Digest of a body (RFC 9530, sha-256). */
export async function contentDigest(body: Uint8Array): Promise<string> {
  return digestField(new Uint8Array(await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>)));
}

/** The RFC 9530 form of a hex SHA-256 (the installer's, as releases store it). */
export function digestOfHex(hex: string): string {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return digestField(bytes);
}

/** Signed headers: at once when this window signed the same answer already, else once signed. */
export type SignedNow = MaybePromise<SignatureHeaders>;

export interface AnswerSignatures {
  /** The headers that sign `status` and `fields` with `meaning` now: at once when this window signed them already. */
  sign(status: number, fields: CoveredFields, meaning: SignatureMeaning): SignedNow;
  /** The `created` of signatures made now: a caller that keeps a signature per answer keeps it while this stays. */
  window(): number;
}

/**
 * Creates the signatures of one app.
 *
 * @param signer The key.
 * @param clock The app's clock (windows are in its seconds).
 * @param windowSeconds How long one signature is handed out: `created` moves on once per window.
 * @param lifetimeSeconds How long after `created` a signature is valid (`expires`).
 */
export function createAnswerSignatures(signer: AnswerSigner, clock: Clock, windowSeconds = 60, lifetimeSeconds = 600): AnswerSignatures {
  let window = -1;
  let signed = new Map<string, SignedNow>();
  const windowMs = windowSeconds * 1000;
  const windowAt = () => {
    const now = clock.now();
    return (now - (now % windowMs)) / 1000;
  };
  const signNow = async (status: number, fields: CoveredFields, params: SignatureParams): Promise<SignatureHeaders> => {
    const signature = await signer.sign(encoder.encode(signatureBase(status, fields, params)));
    return { 'signature-input': `${SIGNATURE_LABEL}=${signatureParams(fields, params)}`, signature: `${SIGNATURE_LABEL}=:${toBase64(signature)}:` };
  };
  return {
    window: windowAt,
    sign(status, fields, meaning) {
      const created = windowAt();
      const params: SignatureParams = { created, expires: created + lifetimeSeconds, keyId: signer.keyId, tag: meaning.tag, nonce: meaning.nonce };
      // An answer to a nonce is made for one request: kept, it would only push out the answers that repeat.
      if (meaning.nonce !== null) return signNow(status, fields, params);
      if (created !== window) {
        window = created;
        signed = new Map();
      }
      const key = `${meaning.tag}\n${status}\n${fields.map(([name, value]) => `${name}\n${value}`).join('\n')}`;
      const found = signed.get(key);
      if (found !== undefined) return found;
      // Distinct answers of one window are few (releases, the warning page per source label); a flood of
      // labels starts the map over rather than growing it.
      if (signed.size >= MAX_SIGNED) signed = new Map();
      const cache = signed;
      const pending = signNow(status, fields, params).then(
        (headers) => {
          cache.set(key, headers);
          return headers;
        },
        (error: unknown) => {
          cache.delete(key);
          throw error;
        },
      );
      cache.set(key, pending);
      return pending;
    },
  };
}

/** What a served release adds to its answers' covered fields: installer digest and size, notes, critical. */
export function releaseFields(served: { sha256?: string | null; size?: number | null; notesUrl?: string | null; critical?: boolean }): [string, string][] {
  const fields: [string, string][] = [];
  if (served.sha256) fields.push(['installer-digest', digestOfHex(served.sha256)]);
  if (served.size !== undefined && served.size !== null) fields.push(['installer-size', String(served.size)]);
  if (served.notesUrl) fields.push(['release-notes', served.notesUrl]);
  if (served.critical === true) fields.push(['release-critical', '?1']);
  return fields;
}
