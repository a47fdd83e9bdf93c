/**
 * GET /api/v1/version: the desktop version this client should run and the MSI of that same version, for
 * in-app update checks; signed (RFC 9421) over its Content-Digest and the release's headers when the app
 * signs answers (core/releases/answer-signature.ts).
 *
 * @module
 */
import * as v from 'valibot';
import { contentDigest, type CoveredFields, releaseFields, type SignatureHeaders, UPDATE_ANSWER } from '../releases/answer-signature.ts';
import type { AppContext, Operation } from '../context.ts';
import { type CoreResponse, encodeJson, headerValue, JSON_TYPE } from '../http/http.ts';
import { andThen, type Answer } from '../http/maybe.ts';
import type { MaybePromise } from '../ports/ports.ts';
import type { ServedRelease } from '../releases/release-view.ts';
import { VersionString } from '../schemas/responses.ts';
import { isWindowsClient } from '../clients/platform.ts';
import { clientKeyOf } from '../clients/client-ip.ts';

/** Answers kept at most: the releases served now and the baseline, with room for changes. */
const ANSWERS = 8;

/** One distinct answer: its body, and once worked out, the covered fields of its signature. */
interface KeptAnswer {
  body: Uint8Array;
  /** Content-Digest first, then the release's own headers; a promise until the digest is known. */
  fields: MaybePromise<CoveredFields>;
  /** The signed headers of the window `window` (core/releases/answer-signature.ts), kept so that a request of that window only copies them. */
  window: number;
  headers: Record<string, string> | null;
}

/**
 * Serves the release of the client's rollout bucket (core/releases/release-view.ts), from bodies serialized once per
 * release, each digested once. A value that is not a version is a fault of the source: 500, logged.
 */
export function version(context: AppContext): Operation {
  const answers = new Map<string, KeptAnswer>();
  const { signatures } = context;
  // Found by what it serves. Finding it by the release object instead (a WeakMap) earned nothing on bench:ab (issue 43).
  const answerOf = (served: ServedRelease): KeptAnswer => {
    const key = `${served.version}\n${served.msiUrl}\n${served.sha256 ?? ''}\n${served.size ?? ''}\n${served.notesUrl ?? ''}\n${served.critical === true}`;
    let answer = answers.get(key);
    if (answer === undefined) {
      if (!v.is(VersionString, served.version)) throw new Error(`the version source gave ${JSON.stringify(served.version)}, not a version`);
      if (answers.size >= ANSWERS) answers.clear();
      const body = encodeJson({ version: served.version, downloadUrl: served.msiUrl });
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
    const headers: Record<string, string> = { 'content-type': JSON_TYPE };
    for (const [name, value] of fields) headers[name] = value;
    headers['signature-input'] = signature['signature-input'];
    headers['signature'] = signature.signature;
    answer.window = window;
    answer.headers = headers;
    return headers;
  };
  // Each answer gets its own copy: the pipeline and the adapters add their headers to it. Copied with
  // Object.assign, not a spread: V8 gave each spread copy of these keyed headers a shape of its own, and the
  // ten headers the pipeline adds then cost 10-20 us a request (measured, issue 31).
  const sent = (answer: KeptAnswer, headers: Record<string, string>): CoreResponse => ({ status: 200, headers: Object.assign({}, headers), body: answer.body });
  const respond = (served: ServedRelease): Answer => {
    const answer = answerOf(served);
    if (!signatures) return plain(answer);
    const window = signatures.window();
    if (answer.window === window && answer.headers !== null) return sent(answer, answer.headers);
    return andThen(
      answer.fields,
      (fields) => andThen(signatures.sign(200, fields, UPDATE_ANSWER), (signature) => sent(answer, keep(answer, window, fields, signature))),
    );
  };
  // Answered from the release view in memory: synchronous unless a read, a bucket or a new signature must be awaited.
  return (request) =>
    andThen(context.releases.pick(clientKeyOf(request)), (served) => {
      const platform = isWindowsClient(request.headers) ? 'windows' : 'other';
      context.usage.count('update_check', served.version, null, platform);
      context.usage.installed(context.releaseWatch.installedLabel(headerValue(request.headers, 'user-agent')), clientKeyOf(request), platform);
      return respond(served);
    });
}
