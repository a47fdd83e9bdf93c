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
 * The update answers are signed here too, both of them: GET /version's, kept whole per release and window
 * (`keptVersionAnswers`), and GET /download's redirect (`redirectFields`, `withSignature`).
 *
 * @module
 */
import { type CoreResponse, JSON_TYPE } from '../http/http.ts';
import { andThen, type Answer } from '../http/maybe.ts';
import type { Clock, MaybePromise } from '../ports/ports.ts';
import type { ServedRelease } from './release-view.ts';

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

/**
 * Adds a signed answer's covered fields, in order, then `Signature-Input` and `Signature`, to its headers.
 *
 * @param headers The answer's headers, written to.
 * @param fields The covered fields the signature was made over.
 * @param signature The signature of those fields.
 * @returns `headers`.
 */
export function withSignature(headers: Record<string, string>, fields: CoveredFields, signature: SignatureHeaders): Record<string, string> {
  for (const [name, value] of fields) headers[name] = value;
  headers['signature-input'] = signature['signature-input'];
  headers['signature'] = signature.signature;
  return headers;
}

/**
 * The covered fields of GET /download's redirect: its Location, and on the redirect to the MSI the
 * release's version and headers, so that it verifies only for the version the app was offered (the one to
 * the warning page is signed with its Location only).
 *
 * @param location The redirect's Location.
 * @param installer The release whose MSI the Location is, or null for the warning page.
 */
export function redirectFields(location: string, installer: ServedRelease | null): CoveredFields {
  if (installer === null) return [['location', location]];
  return [['location', location], ['release-version', installer.version], ...releaseFields(installer)];
}

/** GET /version's answers kept at most: the releases served now and the baseline, with room for changes. */
const KEPT_ANSWERS = 8;

/** One distinct answer of GET /version: its body, and once worked out, the covered fields of its signature. */
interface KeptAnswer {
  body: Uint8Array;
  /** Content-Digest first, then the release's own headers; a promise until the digest is known. */
  fields: MaybePromise<CoveredFields>;
  /** The signed headers of the window `window`, kept so that a request of that window only copies them. */
  window: number;
  headers: Record<string, string> | null;
}

/**
 * GET /version's answers, each kept per distinct release: its body serialized once and digested once, and
 * its signed headers per signature window, so that a request of a window that signed it already only
 * copies them.
 *
 * @param signatures The app's signatures, or null when it signs no answer.
 * @param bodyOf The JSON body of a release's answer, called once per distinct release; what it throws, the answer throws.
 * @returns The answer that serves a release: at once, unless a digest or a new window's signature is awaited.
 */
export function keptVersionAnswers(signatures: AnswerSignatures | null, bodyOf: (served: ServedRelease) => Uint8Array): (served: ServedRelease) => Answer {
  const answers = new Map<string, KeptAnswer>();
  // Found by what it serves. Finding it by the release object instead (a WeakMap) earned nothing on bench:ab (issue 43).
  const answerOf = (served: ServedRelease): KeptAnswer => {
    const key = `${served.version}\n${served.msiUrl}\n${served.sha256 ?? ''}\n${served.size ?? ''}\n${served.notesUrl ?? ''}\n${served.critical === true}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      const body = bodyOf(served);
      if (answers.size >= KEPT_ANSWERS) answers.clear();
      const made: KeptAnswer = { body, fields: [], window: -1, headers: null };
      if (signatures) {
        made.fields = contentDigest(body).then((digest) => (made.fields = [['content-digest', digest], ...releaseFields(served)]));
      }
      answers.set(key, answer = made);
    }
    return answer;
  };
  const plain = (answer: KeptAnswer): CoreResponse => ({ status: 200, headers: { 'content-type': JSON_TYPE }, body: answer.body });
  const keep = (answer: KeptAnswer, window: number, fields: CoveredFields, signature: SignatureHeaders): Record<string, string> => {
    const headers = withSignature({ 'content-type': JSON_TYPE }, fields, signature);
    answer.window = window;
    answer.headers = headers;
    return headers;
  };
  // Each answer gets its own copy: the pipeline and the adapters add their headers to it. Copied with
  // Object.assign, not a spread: V8 gave each spread copy of these keyed headers a shape of its own, and the
  // ten headers the pipeline adds then cost 10-20 us a request (measured, issue 31).
  const sent = (answer: KeptAnswer, headers: Record<string, string>): CoreResponse => ({ status: 200, headers: Object.assign({}, headers), body: answer.body });
  return (served) => {
    const answer = answerOf(served);
    if (!signatures) return plain(answer);
    const window = signatures.window();
    if (answer.window === window && answer.headers !== null) return sent(answer, answer.headers);
    return andThen(
      answer.fields,
      (fields) => andThen(signatures.sign(200, fields, UPDATE_ANSWER), (signature) => sent(answer, keep(answer, window, fields, signature))),
    );
  };
}
