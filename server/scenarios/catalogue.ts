/**
 * The scenarios a desktop app must handle (docs/conformance.md "Testing the desktop app"): for each, what
 * the server answers, what a correct app does, and the project's own app that answers it, tampered with
 * after signing where the scenario is a forgery.
 *
 * @module
 */
import type { FetchHandler } from '../../adapters/fetch/index.ts';
import { type AppPlace, buyLicense, createScenarioApp, INSTALLED_VERSION, NEW_VERSION } from './apps.ts';
import { digestField, installerBytes, installerName } from './installer.ts';
import { checkedLicenseScenarios, checkedUpdateScenarios } from './checked.ts';
import { rewritten } from './forge.ts';
import { OTHER_KEY } from './test-keys.ts';
import { caseInstallers, scenarioOutcome, updateFilesCases, updateFilesHandler, type UpdateFilesInfo } from './update-files.ts';

/** What a correct app concludes, in one word (the `outcome` of GET /scenarios). */
export type Outcome =
  | 'no-update'
  | 'update'
  | 'critical-update'
  | 'refuse-answer'
  | 'refuse-installer'
  | 'retry-later'
  | 'lease-renewed'
  | 'stop'
  | 'keep-lease';

/** One scenario as GET /scenarios lists it. */
export interface ScenarioInfo {
  name: string;
  /**
   * The app's check it is for: the update check (GET version, GET download, the installer), the license
   * re-check, or the update check over the TUF update files (`/updates/stable/`).
   */
  check: 'update' | 'license' | 'update-files';
  /** What the server answers. */
  serves: string;
  /** What a correct app does. */
  correct: string;
  outcome: Outcome;
  /** The license key the app holds and sends (license scenarios). */
  licenseKey?: string;
  /** The clock, install, trusted state and expected outcome of an update-files scenario. */
  updateFiles?: UpdateFilesInfo;
}

/** A scenario ready to answer. */
export interface Scenario extends ScenarioInfo {
  /** Answers the scenario's API requests (paths without the /scenario/<name> prefix). */
  handle: FetchHandler;
  /** The installers it serves itself, by file name. */
  installers: ReadonlyMap<string, Uint8Array>;
}

/** The scenario where the client is outside the staged release: buckets fixed by this secret put 127.0.0.1 and ::1 above 10. */
export const STAGED_SECRET = 'converter-site-api scenarios: staged release';

/** The installer of each version, genuine. */
function genuineInstallers(...versions: string[]): Map<string, Uint8Array> {
  return new Map(versions.map((version) => [installerName(version), installerBytes(version)]));
}

/** A copy of a response with headers changed and its body as `body`. */
function reanswer(response: Response, body: string | null, change: (headers: Headers) => void = () => {}): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  change(headers);
  return new Response(body, { status: response.status, headers });
}

/** Creates every scenario, in the order GET /scenarios lists them. */
export async function createScenarios(place: (name: string) => AppPlace): Promise<Scenario[]> {
  const release = { version: NEW_VERSION, rolloutBasisPoints: 10000 };
  const update = (name: string, setup: Parameters<typeof createScenarioApp>[1] = { releases: [release] }) => createScenarioApp(place(name), setup);
  const installed = genuineInstallers(INSTALLED_VERSION);
  const offered = genuineInstallers(INSTALLED_VERSION, NEW_VERSION);
  const other = installerBytes(NEW_VERSION, false);
  const patchedName = installerName(`${NEW_VERSION}-patched`);

  const scenarios: Scenario[] = [
    {
      name: 'no-update',
      check: 'update',
      serves: `No release above the installed ${INSTALLED_VERSION}: GET version names ${INSTALLED_VERSION}.`,
      correct: 'Verifies the answer, sees the version it has, and installs nothing.',
      outcome: 'no-update',
      handle: (await update('no-update', {})).handle,
      installers: installed,
    },
    {
      name: 'update-offered',
      check: 'update',
      serves:
        `Release ${NEW_VERSION} at 100 %: GET version and GET download name it, signed, with its Installer-Digest and Installer-Size; the installer is served here.`,
      correct:
        `Verifies GET version, then the 302 of GET download for ${NEW_VERSION} (Release-Version), downloads the installer, checks its SHA-256 and size against the signed ones, and offers the update.`,
      outcome: 'update',
      handle: (await update('update-offered')).handle,
      installers: offered,
    },
    {
      name: 'older-release',
      check: 'update',
      serves:
        `A server whose version is 2.6.1, below the installed ${INSTALLED_VERSION}: GET version and GET download name 2.6.1, genuinely signed, with its Installer-Digest.`,
      correct:
        `Verifies the answer, sees a version lower than the ${INSTALLED_VERSION} it has (compared as the server does), and installs nothing: never a downgrade.`,
      outcome: 'no-update',
      handle: (await update('older-release', { baselineVersion: '2.6.1' })).handle,
      installers: genuineInstallers(INSTALLED_VERSION, '2.6.1'),
    },
    {
      name: 'staged-outside',
      check: 'update',
      serves:
        `Release ${NEW_VERSION} staged at 10 %, and the rollout bucket of a client at 127.0.0.1 or ::1 is outside it: GET version names ${INSTALLED_VERSION}.`,
      correct: 'Verifies the answer and installs nothing: the server decides the rollout, the app never looks past it.',
      outcome: 'no-update',
      handle: (await update('staged-outside', { releases: [{ version: NEW_VERSION, rolloutBasisPoints: 1000 }], voterSecret: STAGED_SECRET })).handle,
      installers: offered,
    },
    {
      name: 'critical-update',
      check: 'update',
      serves: `Release ${NEW_VERSION} marked critical: the signed answers carry Release-Critical: ?1.`,
      correct: 'Verifies as for update-offered, and installs without asking, because the signature holds.',
      outcome: 'critical-update',
      handle: (await update('critical-update', { releases: [{ ...release, critical: true }] })).handle,
      installers: offered,
    },
    {
      name: 'pulled-release',
      check: 'update',
      serves: `Releases ${NEW_VERSION} and 2.8.0 at 100 %, then 2.8.0 pulled: GET version falls back to ${NEW_VERSION}.`,
      correct: `Updates to ${NEW_VERSION}, never to 2.8.0; an app that had installed 2.8.0 keeps it (it never installs a lower version).`,
      outcome: 'update',
      handle: (await update('pulled-release', { releases: [release, { version: '2.8.0', rolloutBasisPoints: 10000, pulled: true }] })).handle,
      installers: genuineInstallers(INSTALLED_VERSION, NEW_VERSION, '2.8.0'),
    },
    {
      name: 'expired-signature',
      check: 'update',
      serves: `Release ${NEW_VERSION}, answered by a server whose clock is an hour behind: each signature expired 50 minutes ago.`,
      correct: 'Refuses the answer (now is past its expires) and installs nothing.',
      outcome: 'refuse-answer',
      handle: (await update('expired-signature', { releases: [release], behindMs: 3_600_000 })).handle,
      installers: offered,
    },
    {
      name: 'future-signature',
      check: 'update',
      serves:
        `Release ${NEW_VERSION}, answered by a server whose clock is 10 minutes ahead: each signature's created is 10 minutes in the future (expires 20).`,
      correct: 'Refuses the answer (created is more than the 5 minutes of allowed skew ahead of now) and installs nothing.',
      outcome: 'refuse-answer',
      handle: (await update('future-signature', { releases: [release], behindMs: -600_000 })).handle,
      installers: offered,
    },
    {
      name: 'tampered-body',
      check: 'update',
      serves: `Release ${NEW_VERSION}; the body of GET version was changed after signing (its downloadUrl names ${patchedName}, served here with other bytes).`,
      correct: 'Refuses the answer (the body does not match Content-Digest) and downloads nothing.',
      outcome: 'refuse-answer',
      handle: rewritten(
        (await update('tampered-body')).handle,
        async (response, path) =>
          path.endsWith('/version') && response.status === 200
            ? reanswer(response, (await response.text()).replace(installerName(NEW_VERSION), patchedName))
            : response,
      ),
      installers: new Map([...offered, [patchedName, other]]),
    },
    {
      name: 'tampered-installer-digest',
      check: 'update',
      serves:
        `Release ${NEW_VERSION}; Installer-Digest of GET version and GET download was replaced after signing by the SHA-256 of other bytes, which the installer's address serves.`,
      correct: 'Refuses both answers (the signature does not hold) and downloads nothing.',
      outcome: 'refuse-answer',
      handle: rewritten((await update('tampered-installer-digest')).handle, async (response) => {
        const forged = await digestField(other);
        return response.headers.has('installer-digest')
          ? reanswer(response, response.status === 302 ? null : await response.text(), (h) => h.set('installer-digest', forged))
          : response;
      }),
      installers: new Map([...installed, [installerName(NEW_VERSION), other]]),
    },
    {
      name: 'installer-mismatch',
      check: 'update',
      serves: `Release ${NEW_VERSION}, genuinely signed; the installer's address serves other bytes of the same size.`,
      correct: 'Verifies both answers, downloads the installer, finds its SHA-256 is not the signed Installer-Digest, deletes it and never runs it.',
      outcome: 'refuse-installer',
      handle: (await update('installer-mismatch')).handle,
      installers: new Map([...installed, [installerName(NEW_VERSION), other]]),
    },
    {
      name: 'no-installer-digest',
      check: 'update',
      serves:
        `Release ${NEW_VERSION} published without its installer's SHA-256 and size: GET version and GET download are genuinely signed but carry no Installer-Digest nor Installer-Size; the installer is served here.`,
      correct:
        'Verifies both answers, finds no Installer-Digest among the signed headers, and installs nothing: an answer that says nothing of the installer cannot vouch for the bytes downloaded.',
      outcome: 'refuse-installer',
      handle: (await update('no-installer-digest', { releases: [{ ...release, unhashed: true }] })).handle,
      installers: offered,
    },
    {
      name: 'replayed-download',
      check: 'update',
      serves:
        `GET version offers ${NEW_VERSION}; GET download is a genuine, unexpired redirect to ${INSTALLED_VERSION} (Release-Version: ${INSTALLED_VERSION}), as a network replaying a saved answer would serve it.`,
      correct: `Verifies the redirect, finds its Release-Version is not the ${NEW_VERSION} GET version offered, and downloads nothing.`,
      outcome: 'refuse-answer',
      handle: await (async (): Promise<FetchHandler> => {
        const [offering, replaying] = [(await update('replayed-download')).handle, (await update('replayed-download', {})).handle];
        return (request, clientIp) => (new URL(request.url).pathname.endsWith('/download') ? replaying : offering)(request, clientIp);
      })(),
      installers: offered,
    },
    ...(await checkedUpdateScenarios(update, offered)),
    {
      name: 'rate-limited',
      check: 'update',
      serves: 'Every request is 429 rate_limited with Retry-After (and a license re-check too).',
      correct: 'Changes nothing and asks again no sooner than Retry-After seconds.',
      outcome: 'retry-later',
      handle: (await update('rate-limited', { releases: [release], rateLimit: { name: 'public-api', limit: 0, windowSeconds: 60 } })).handle,
      installers: offered,
    },
    {
      name: 'server-error',
      check: 'update',
      serves: 'GET version and GET download are 500 internal_error (the server cannot read its version file); errors are never signed.',
      correct: 'Changes nothing and asks again later (at its usual interval, not in a loop).',
      outcome: 'retry-later',
      handle: (await update('server-error', { releases: [], failing: true })).handle,
      installers: installed,
    },
    ...(await licenseScenarios(place)),
    ...(await updateFilesScenarios()),
  ];
  return scenarios;
}

/** The cases of docs/vectors/update-files.json, each served as the update files of its own channel `stable`. */
async function updateFilesScenarios(): Promise<Scenario[]> {
  const installers = await caseInstallers();
  return (await updateFilesCases()).map((vector) => ({
    name: `files-${vector.name}`,
    check: 'update-files',
    serves: `The update files under updates/stable/: ${vector.description}`,
    correct: vector.expected.startsWith('refuse ')
      ? `Refuses the files (${vector.expected.slice('refuse '.length)}), keeps its last good state, and installs nothing.`
      : vector.expected === 'none'
      ? 'Verifies the files and installs nothing: no release above the installed one is offered to this install now.'
      : `Verifies the files and chooses ${
        vector.expected.slice('install '.length)
      }, then downloads its installer from targets/{sha256}.{name} and checks its length and SHA-256.`,
    outcome: scenarioOutcome(vector.expected),
    updateFiles: {
      now: vector.now,
      installId: vector.installId,
      installedVersion: vector.installedVersion,
      expected: vector.expected,
      trusted: vector.trusted,
    },
    handle: updateFilesHandler(vector, installers),
    installers: new Map(),
  }));
}

/** The license standings: one store of orders, answered under the scenario key, and under another key. */
async function licenseScenarios(place: (name: string) => AppPlace): Promise<Scenario[]> {
  const owner = await createScenarioApp(place('license-valid'));
  const valid = await buyLicense(owner, 'standard');
  const revoked = await buyLicense(owner, 'standard', true);
  // The standings of one store of orders, each under its scenario's own address.
  const on = async (name: string, signingKey?: string) =>
    (await createScenarioApp(place(name), { storage: owner.storage, ...(signingKey === undefined ? {} : { signingKey }) })).handle;
  const none = new Map<string, Uint8Array>();
  return [
    {
      name: 'license-valid',
      check: 'license',
      serves: 'POST licenses/validate: standing "valid" for the key listed, with product and validUntil (the lease, 14 days on).',
      correct: 'Verifies the answer (tag license-standing, its nonce, License-Key-Digest of its key) and sets its lease to validUntil.',
      outcome: 'lease-renewed',
      licenseKey: valid,
      handle: owner.handle,
      installers: none,
    },
    {
      name: 'license-revoked',
      check: 'license',
      serves: 'POST licenses/validate: standing "revoked" for the key listed (its order was refunded).',
      correct: 'Verifies the answer and ends its lease now: the key no longer unlocks anything.',
      outcome: 'stop',
      licenseKey: revoked,
      handle: await on('license-revoked'),
      installers: none,
    },
    {
      name: 'license-unknown',
      check: 'license',
      serves: 'POST licenses/validate: standing "unknown" for the key listed (no order of this server holds it).',
      correct: 'Verifies the answer and keeps its lease: it runs out by itself.',
      outcome: 'keep-lease',
      // The test key of docs/licensing.md: made by the scenario key, never sold here.
      licenseKey:
        '202GK-N4ZFF-SPXBH-S5Q94-Q6YRP-EX2MH-7RQ99-K6NHH-TM0W7-M04FT-NPEKP-20BCM-Z4DYN-BHB34-NA23S-HMYH6-VDF90-Z8TFG-9SVN6-ZDZQR-8BE0P-BYH9M-579CT-FN488',
      handle: await on('license-unknown'),
      installers: none,
    },
    {
      name: 'license-other-key',
      check: 'license',
      serves: 'POST licenses/validate: standing "valid" for the key listed, from the same orders, but signed with another key.',
      correct: 'Refuses the answer (its keyid is not the embedded public key, and the signature does not verify with it) and changes nothing.',
      outcome: 'refuse-answer',
      licenseKey: valid,
      handle: await on('license-other-key', OTHER_KEY),
      installers: none,
    },
    ...(await checkedLicenseScenarios(on, valid, revoked)),
  ];
}
