/**
 * The scenarios that only an app making one particular check passes (docs/conformance.md "Which scenario
 * catches which check"): each is genuine or signed by the embedded key itself, and wrong in the one way
 * that check catches (the key named by keyid, the algorithm, the tag, what the signature covers, a
 * header outside it, the nonce, the key the standing is about).
 *
 * @module
 */
import type { FetchHandler } from '../../adapters/fetch/index.ts';
import { type AppSetup, NEW_VERSION, type ScenarioApp } from './apps.ts';
import type { Scenario } from './catalogue.ts';
import { resign, rewritten, withParam } from './forge.ts';
import { OTHER_KEY } from './test-keys.ts';

type MakeApp = (name: string, setup?: AppSetup) => Promise<ScenarioApp>;

/** The nonce of the answer saved earlier and replayed by `license-replayed`: no app sends this one. */
export const SAVED_NONCE = 'c2F2ZWQtZWFybGllci1ub25jZQ';

/** The update scenarios for the checks of the signature's parameters and coverage. */
export async function checkedUpdateScenarios(update: MakeApp, offered: ReadonlyMap<string, Uint8Array>): Promise<Scenario[]> {
  const release = { version: NEW_VERSION, rolloutBasisPoints: 10000 };
  const resigned = async (name: string, change: Parameters<typeof resign>[1]) => rewritten((await update(name)).handle, (response) => resign(response, change));
  return [
    {
      name: 'update-other-key',
      check: 'update',
      serves: `Release ${NEW_VERSION}; both answers are genuinely signed, but by another key, which their keyid names (otherPublicKey of GET /scenarios).`,
      correct: 'Refuses both answers: it verifies with the public key it embeds, never with the one an answer names.',
      outcome: 'refuse-answer',
      handle: (await update('update-other-key', { releases: [release], signingKey: OTHER_KEY })).handle,
      installers: offered,
    },
    {
      name: 'other-algorithm',
      check: 'update',
      serves:
        `Release ${NEW_VERSION}; both answers say alg="hmac-sha256", and their Signature is an HMAC-SHA256 of the signature base keyed with the embedded public key's 32 bytes.`,
      correct: 'Refuses both answers: the algorithm is Ed25519 whatever an answer names (an app that lets alg choose takes the public key for a secret).',
      outcome: 'refuse-answer',
      handle: await resigned('other-algorithm', { params: (p) => withParam(p, 'alg', 'hmac-sha256'), algorithm: 'hmac-sha256' }),
      installers: offered,
    },
    {
      name: 'standing-signature',
      check: 'update',
      serves: `Release ${NEW_VERSION}; both answers are signed by the embedded key, with tag="license-standing", the tag of a license key's standing.`,
      correct: 'Refuses both answers: an update answer\'s tag is "update", so that no signature made for another kind of answer passes for one.',
      outcome: 'refuse-answer',
      handle: await resigned('standing-signature', { params: (p) => withParam(p, 'tag', 'license-standing') }),
      installers: offered,
    },
    {
      name: 'body-not-covered',
      check: 'update',
      serves:
        `Release ${NEW_VERSION}; GET version's signature, by the embedded key, covers @status and the installer's headers but not Content-Digest (which is there, uncovered).`,
      correct: "Refuses the answer: a 200's signature must cover Content-Digest (a redirect's, Location), or it vouches for no body.",
      outcome: 'refuse-answer',
      handle: rewritten(
        (await update('body-not-covered')).handle,
        (response, path) => path.endsWith('/version') ? resign(response, { components: (names) => names.filter((n) => n !== 'content-digest') }) : response,
      ),
      installers: offered,
    },
    {
      name: 'unsigned-critical',
      check: 'update',
      serves: `Release ${NEW_VERSION}, not critical; Release-Critical: ?1 was added to both answers after signing, outside what their signatures cover.`,
      correct: 'Verifies both answers and the installer and offers the update, asking first: Release-Critical counts only when the signature covers it.',
      outcome: 'update',
      handle: rewritten((await update('unsigned-critical')).handle, (response) => {
        const headers = new Headers(response.headers);
        headers.set('release-critical', '?1');
        return new Response(response.body, { status: response.status, headers });
      }),
      installers: offered,
    },
  ];
}

/** A handler whose license re-checks reach the app with their JSON body changed. */
function askedOtherwise(handle: FetchHandler, change: (body: Record<string, unknown>) => Record<string, unknown>): FetchHandler {
  return async (request, clientIp) => {
    if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/licenses/validate')) return handle(request, clientIp);
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    const sent = body !== null && typeof body === 'object' && !Array.isArray(body) ? change(body as Record<string, unknown>) : null;
    return handle(new Request(request.url, { method: 'POST', headers: request.headers, body: sent === null ? text : JSON.stringify(sent) }), clientIp);
  };
}

/** The license scenarios for the checks of the nonce, the key the standing is about, and the tag. */
export async function checkedLicenseScenarios(on: (name: string) => Promise<FetchHandler>, valid: string, revoked: string): Promise<Scenario[]> {
  const none = new Map<string, Uint8Array>();
  const standing = await on('license-update-signature');
  const asUpdate: FetchHandler = async (request, clientIp) => resign(await standing(request, clientIp), { params: (p) => withParam(p, 'tag', 'update') });
  return [
    {
      name: 'license-replayed',
      check: 'license',
      serves: 'POST licenses/validate: a genuine "valid" standing for the key listed, signed for another nonce (an answer to an earlier request, replayed).',
      correct: 'Refuses the answer (its nonce is not the fresh one it sent) and changes nothing.',
      outcome: 'refuse-answer',
      licenseKey: valid,
      handle: askedOtherwise(await on('license-replayed'), (body) => ({ ...body, nonce: SAVED_NONCE })),
      installers: none,
    },
    {
      name: 'license-swapped-key',
      check: 'license',
      serves:
        'POST licenses/validate: a genuine "valid" standing, for its nonce, but about another key than the one sent (the key listed was refunded; the answer is about a key still valid).',
      correct: 'Refuses the answer (License-Key-Digest is not the SHA-256 of the key it sent) and changes nothing.',
      outcome: 'refuse-answer',
      licenseKey: revoked,
      handle: askedOtherwise(await on('license-swapped-key'), (body) => ({ ...body, licenseKey: valid })),
      installers: none,
    },
    {
      name: 'license-update-signature',
      check: 'license',
      serves: 'POST licenses/validate: "valid" for the key listed, signed by the embedded key with tag="update", the tag of an update answer.',
      correct: 'Refuses the answer: a standing\'s tag is "license-standing", and changes nothing.',
      outcome: 'refuse-answer',
      licenseKey: valid,
      handle: asUpdate,
      installers: none,
    },
  ];
}
