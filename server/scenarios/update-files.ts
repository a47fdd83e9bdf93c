/**
 * The update files' client cases (issue 54, "Client kit"): TUF repositories of one channel, each with the
 * state an app trusts, its clock, its install and what it must conclude. docs/vectors/update-files.json is
 * these cases (scripts/update-file-vectors.ts writes it); the scenario server serves each one's files
 * under `/scenario/<name>/updates/stable/`. Deterministic: fixed test keys, fixed times, fixed install ids
 * (the first of a fixed sequence whose bucket falls where the case needs it), and Ed25519 signs the same
 * bytes the same way.
 *
 * Keys: the root key is SCENARIO_KEY and the online key OTHER_KEY (server/scenarios/test-keys.ts); the
 * second root key, the second online key and the stranger's key are made here from fixed seeds. All are
 * test-only: their private halves are public.
 *
 * @module
 */
import { toBase64Url } from '../../core/formats/base64url.ts';
import { fromHex } from '../../core/formats/hex.ts';
import type { Release } from '../../core/ports/release-store.ts';
import type { TrustedState } from '../../core/tuf/client.ts';
import { cohortBucket } from '../../core/tuf/cohort.ts';
import { feedTargets } from '../../core/tuf/feed.ts';
import { createTufSigner, sha256Hex, type TufSigner } from '../../core/tuf/keys.ts';
import {
  buildRoot,
  buildSnapshot,
  buildTargets,
  buildTimestamp,
  type Envelope,
  envelopeText,
  metaEntryOf,
  signEnvelope,
  type TimestampSigned,
} from '../../core/tuf/metadata.ts';
import { installerBytes, installerName } from './installer.ts';
import { OTHER_KEY, SCENARIO_KEY } from './test-keys.ts';

/** One case: a repository as served, the app's trusted state, clock and install, and what it must conclude. */
export interface UpdateFilesCase {
  name: string;
  description: string;
  /** The app's clock, ISO 8601 with milliseconds. */
  now: string;
  installId: string;
  installedVersion: string;
  /** What the app trusts before the check: the pinned root, and for some cases the files of its last good check. */
  trusted: TrustedState;
  /** The channel's files by path under `/updates/{channel}/` (`timestamp.json`, `2.root.json`...). */
  files: Record<string, string>;
  /** `install <version>`, `none` or `refuse <reason>` (core/tuf/client.ts `RefusalReason`). */
  expected: string;
  /** Whether a stock TUF 1.0 client (tuf-js) accepts the files at `now`: it differs only where the app's own rule refuses (`wrong-clock`). */
  stockClient: 'accept' | 'refuse';
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The cases' reference time: the app's clock unless a case says otherwise. */
export const FILES_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const SIGNED_AT = FILES_NOW - HOUR;
const encoder = new TextEncoder();
const PKCS8_ED25519 = '302e020100300506032b657004220420';

/** A test-only Ed25519 key from a fixed seed: the SHA-256 of a label. */
async function fixedKey(label: string): Promise<string> {
  const der = fromHex(PKCS8_ED25519 + await sha256Hex(encoder.encode(`converter-site-api update-file vectors, test-only key: ${label}`)));
  return btoa(String.fromCharCode(...der));
}

/** The cases' installers: the scenario installer of each version. */
async function release(version: string, changes: Partial<Release> = {}): Promise<Release> {
  const bytes = installerBytes(version);
  return {
    version,
    msiUrl: `https://downloads.example.com/${installerName(version)}`,
    notesUrl: `https://www.example.com/releases/${version}`,
    channel: 'stable',
    rolloutBasisPoints: 10000,
    publishedAt: FILES_NOW - 30 * DAY,
    pulledAt: null,
    sha256: await sha256Hex(bytes),
    size: bytes.length,
    critical: false,
    ramp: null,
    haltedAt: null,
    haltReason: null,
    announcedStep: 0,
    ...changes,
  };
}

interface Keys {
  root: TufSigner;
  online: TufSigner;
  root2: TufSigner;
  online2: TufSigner;
  stranger: TufSigner;
}

/** The texts of one publication: timestamp, snapshot and targets. */
interface Published {
  timestamp: string;
  snapshot: string;
  targets: string;
}

interface PublishTerms {
  releases: Release[];
  signer: TufSigner;
  /** The version of all three files (1 by default). */
  version?: number;
  signedAt?: number;
  /** When the timestamp expires; its signing time plus 24 hours by default. */
  timestampExpires?: number;
  targetsExpires?: number;
  /** Signs the timestamp with this key instead. */
  timestampSigner?: TufSigner;
}

/** Seeds of the major.minor lines: fixed hex. */
const seedOf = (line: string) => `5eed${[...encoder.encode(line)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

async function publish(terms: PublishTerms): Promise<{ files: Record<string, string>; published: Published }> {
  const version = terms.version ?? 1;
  const signedAt = terms.signedAt ?? SIGNED_AT;
  const targets = feedTargets(terms.releases, { summaryOf: (v) => `Version ${v}`, seedOf }, signedAt);
  const targetsText = envelopeText(
    await signEnvelope(buildTargets({ version, expires: terms.targetsExpires ?? signedAt + 7 * DAY, targets }), [terms.signer]),
  );
  const snapshotText = envelopeText(
    await signEnvelope(buildSnapshot({ version, expires: signedAt + 7 * DAY, targets: await metaEntryOf(targetsText) }), [terms.signer]),
  );
  const timestampText = envelopeText(
    await signEnvelope(
      buildTimestamp({ version, expires: terms.timestampExpires ?? signedAt + DAY, snapshot: await metaEntryOf(snapshotText) }),
      [terms.timestampSigner ?? terms.signer],
    ),
  );
  return {
    files: { 'timestamp.json': timestampText, [`${version}.snapshot.json`]: snapshotText, [`${version}.targets.json`]: targetsText },
    published: { timestamp: timestampText, snapshot: snapshotText, targets: targetsText },
  };
}

async function rootText(version: number, rootKeys: TufSigner[], online: TufSigner, signers: TufSigner[]): Promise<string> {
  const signed = await buildRoot({
    version,
    expires: FILES_NOW + 365 * DAY,
    rootKeys: rootKeys.map((k) => k.key),
    rootThreshold: 1,
    onlineKey: online.key,
  });
  return envelopeText(await signEnvelope(signed, signers));
}

/** The n-th install id of the fixed sequence: 16 bytes of SHA-256("install n"), base64url. */
async function installId(n: number): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(`converter-site-api update-file vectors: install ${n}`)));
  return toBase64Url(digest.slice(0, 16));
}

/** The first install id of the sequence whose bucket for `line` is in [from, to). */
async function installIn(line: string, from: number, to: number): Promise<string> {
  for (let n = 0; n < 1_000_000; n++) {
    const id = await installId(n);
    const bucket = await cohortBucket(seedOf(line), id);
    if (bucket >= from && bucket < to) return id;
  }
  throw new Error(`no install id with a bucket in [${from}, ${to})`);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Every case, in the order of docs/vectors/update-files.json. */
export async function updateFilesCases(): Promise<UpdateFilesCase[]> {
  const keys: Keys = {
    root: await createTufSigner(SCENARIO_KEY),
    online: await createTufSigner(OTHER_KEY),
    root2: await createTufSigner(await fixedKey('second root key')),
    online2: await createTufSigner(await fixedKey('second online key')),
    stranger: await createTufSigner(await fixedKey("a stranger's key")),
  };
  const root1 = await rootText(1, [keys.root], keys.online, [keys.root]);
  const base = { '1.root.json': root1 };
  const installed = '2.6.2';
  const anyone = await installId(0);
  const stable = [await release('2.6.2', { publishedAt: FILES_NOW - 60 * DAY }), await release('2.7.0')];
  const good = await publish({ releases: stable, signer: keys.online });
  const make = (
    name: string,
    description: string,
    files: Record<string, string>,
    expected: string,
    more: Partial<Pick<UpdateFilesCase, 'now' | 'installId' | 'installedVersion' | 'trusted' | 'stockClient'>> = {},
  ): UpdateFilesCase => ({
    name,
    description,
    now: more.now ?? iso(FILES_NOW),
    installId: more.installId ?? anyone,
    installedVersion: more.installedVersion ?? installed,
    trusted: more.trusted ?? { root: root1 },
    files: { ...base, ...files },
    expected,
    stockClient: more.stockClient ?? (expected.startsWith('refuse') ? 'refuse' : 'accept'),
  });

  // Rolled back: the app last trusted version 3 of each file.
  const three = await publish({ releases: stable, signer: keys.online, version: 3 });
  const trustedThree: TrustedState = { root: root1, ...three.published };
  const two = await publish({ releases: stable, signer: keys.online, version: 2 });
  const timestampNamingTwo = envelopeText(
    await signEnvelope(
      buildTimestamp({ version: 4, expires: SIGNED_AT + DAY, snapshot: await metaEntryOf(two.published.snapshot) }),
      [keys.online],
    ),
  );

  // Mix-and-match: version 2 of the targets, signed, but not the one the snapshot names.
  const other = await publish({ releases: [...stable, await release('2.8.0')], signer: keys.online, version: 2 });

  // Tampered: a stale timestamp whose expires was moved a day on after signing.
  const stale = await publish({ releases: stable, signer: keys.online, signedAt: FILES_NOW - 25 * HOUR });
  const moved = JSON.parse(stale.published.timestamp) as Envelope<TimestampSigned>;
  moved.signed.expires = new Date(Date.parse(moved.signed.expires) + DAY).toISOString().replace(/\.\d{3}Z$/, 'Z');

  // Rotations.
  const root2NewRootKey = await rootText(2, [keys.root2], keys.online, [keys.root, keys.root2]);
  const root2NewOnlineKey = await rootText(2, [keys.root], keys.online2, [keys.root]);
  const nine = await publish({ releases: stable, signer: keys.online, version: 9 });

  // Ramps: 2.7.0 from 10 % a day ago to 50 % now.
  const ramp = (startAt: number, basisPoints: number[], everyMs = DAY) => ({ startAt, basisPoints, everyMs });
  const ramping = await publish({
    releases: [
      stable[0]!,
      await release('2.7.0', { publishedAt: FILES_NOW - DAY, rolloutBasisPoints: 1000, ramp: ramp(FILES_NOW - DAY, [1000, 5000, 10000]) }),
    ],
    signer: keys.online,
  });
  const between = await installIn('2.7', 1000, 5000);
  const halted = await publish({
    releases: [
      stable[0]!,
      await release('2.7.0', {
        publishedAt: FILES_NOW - 2 * DAY,
        rolloutBasisPoints: 1000,
        ramp: ramp(FILES_NOW - 2 * DAY, [1000, 5000, 10000]),
        haltedAt: FILES_NOW - 36 * HOUR,
        haltReason: 'crash rate',
      }),
    ],
    signer: keys.online,
  });
  const pulled = await publish({
    releases: [...stable, await release('2.8.0', { publishedAt: FILES_NOW - 3 * DAY, pulledAt: FILES_NOW - 2 * DAY })],
    signer: keys.online,
  });
  const fractional = await publish({
    releases: [stable[0]!, await release('2.7.0', { publishedAt: FILES_NOW - DAY, rolloutBasisPoints: 50 })],
    signer: keys.online,
  });
  const hotfix = await publish({
    releases: [
      stable[0]!,
      await release('2.7.0', { publishedAt: FILES_NOW - 10 * DAY, rolloutBasisPoints: 500, ramp: ramp(FILES_NOW - 10 * DAY, [500, 2500, 10000], 7 * DAY) }),
      await release('2.7.1', { publishedAt: FILES_NOW - 2 * HOUR, rolloutBasisPoints: 500, ramp: ramp(FILES_NOW - 2 * HOUR, [500, 2500, 10000]) }),
    ],
    signer: keys.online,
  });

  return [
    make('good', 'Root 1 pinned; 2.6.2 and 2.7.0 at 100 %, signed an hour ago by the online key.', good.files, 'install 2.7.0'),
    make(
      'expired',
      'The files of `good` signed 25 hours ago: timestamp.json expired an hour ago, and the clock is right.',
      stale.files,
      'refuse stale',
    ),
    make(
      'expired-targets',
      'A fresh timestamp and snapshot, but the targets expired an hour ago.',
      (await publish({ releases: stable, signer: keys.online, targetsExpires: FILES_NOW - HOUR })).files,
      'refuse expired',
    ),
    make(
      'rolled-back-timestamp',
      'The app trusts version 3 of each file; the server serves version 2 of the timestamp (and its snapshot and targets).',
      two.files,
      'refuse rollback',
      { trusted: trustedThree },
    ),
    make(
      'rolled-back-snapshot',
      'The app trusts version 3 of each file; the server serves a timestamp version 4 that names snapshot version 2.',
      { ...two.files, 'timestamp.json': timestampNamingTwo },
      'refuse rollback',
      { trusted: trustedThree },
    ),
    make(
      'mix-and-match',
      'Snapshot version 2 names a targets.json of version 2; 2.targets.json served is another targets version 2, genuinely signed (it lists 2.8.0).',
      { ...two.files, '2.targets.json': other.published.targets },
      'refuse hash-mismatch',
    ),
    make(
      'wrong-key',
      "timestamp.json is signed by a key root 1 does not name (a stranger's).",
      (await publish({
        releases: stable,
        signer: keys.online,
        timestampSigner: keys.stranger,
      })).files,
      'refuse unknown-key',
    ),
    make(
      'tampered-timestamp',
      "The stale timestamp of `expired` with its expires moved a day on after signing: the online key's signature no longer holds.",
      { ...stale.files, 'timestamp.json': envelopeText(moved) },
      'refuse bad-signature',
    ),
    make(
      'rotated-root',
      '2.root.json names a new root key, signed by the old and the new; the files are signed by the same online key.',
      { ...good.files, '2.root.json': root2NewRootKey },
      'install 2.7.0',
    ),
    make(
      'rotated-online-key',
      '2.root.json names a new online key; the app trusts version 9 of each file under the old one, and the files start again at version 1 under the new: TUF 5.3.11 drops the trusted timestamp and snapshot, so this is no rollback.',
      {
        '2.root.json': root2NewOnlineKey,
        ...(await publish({ releases: stable, signer: keys.online2 })).files,
      },
      'install 2.7.0',
      { trusted: { root: root1, ...nine.published } },
    ),
    make(
      'halted',
      "2.7.0's ramp (10 % two days ago, 50 % a day ago) was halted 36 hours ago, before its 50 % step; the install's bucket is between 10 % and 50 %.",
      halted.files,
      'none',
      { installId: between },
    ),
    make('pulled', '2.7.0 and 2.8.0 at 100 %, 2.8.0 pulled: the targets do not list it.', pulled.files, 'install 2.7.0'),
    make(
      'ramp-edge-at',
      "2.7.0 at 10 % from a day ago and 50 % from now, exactly; the install's bucket is between 10 % and 50 %.",
      ramping.files,
      'install 2.7.0',
      { installId: between },
    ),
    make(
      'ramp-edge-before',
      'The files and install of `ramp-edge-at`, 1 ms before its 50 % step.',
      ramping.files,
      'none',
      { installId: between, now: iso(FILES_NOW - 1) },
    ),
    make(
      'fractional-percent-in',
      "2.7.0 at 0.5 % (50 basis points); the install's bucket is below 50.",
      fractional.files,
      'install 2.7.0',
      { installId: await installIn('2.7', 0, 50) },
    ),
    make(
      'fractional-percent-out',
      "2.7.0 at 0.5 % (50 basis points); the install's bucket is 50 to 99: an app that rounds to whole percents would install it.",
      fractional.files,
      'none',
      { installId: await installIn('2.7', 50, 100) },
    ),
    make(
      'hotfix-cohort',
      "2.7.0 at 5 % then 25 %, and its hotfix 2.7.1 at its first step, 5 %, with the line's seed: the install that had 2.7.0 at 5 % is offered 2.7.1.",
      hotfix.files,
      'install 2.7.1',
      { installId: await installIn('2.7', 0, 500), installedVersion: '2.7.0' },
    ),
    make(
      'hotfix-later-cohort',
      'The files of `hotfix-cohort`; the install had 2.7.0 at its 25 % step (bucket 500 to 2499): 2.7.1 is not its yet.',
      hotfix.files,
      'none',
      { installId: await installIn('2.7', 500, 2500), installedVersion: '2.7.0' },
    ),
    make(
      'wrong-clock',
      "The files of `good`; the app's clock is three days behind: the timestamp was signed over a day ahead of it. A stock TUF client accepts them (TUF has no such rule).",
      good.files,
      'refuse wrong-clock',
      { now: iso(FILES_NOW - 3 * DAY), stockClient: 'accept' },
    ),
  ];
}

/** The installers a case's targets name, by `targets/{sha256}.{name}` (the consistent-snapshot path of a target). */
export async function caseInstallers(): Promise<Map<string, Uint8Array>> {
  const installers = new Map<string, Uint8Array>();
  for (const version of ['2.6.2', '2.7.0', '2.7.1', '2.8.0']) {
    const bytes = installerBytes(version);
    installers.set(`targets/${await sha256Hex(bytes)}.${installerName(version)}`, bytes);
  }
  return installers;
}

/** What GET /scenarios adds for an update-files scenario: the app's clock, install, trusted state and expected outcome. */
export interface UpdateFilesInfo {
  now: string;
  installId: string;
  installedVersion: string;
  /** `install <version>`, `none` or `refuse <reason>`. */
  expected: string;
  /** The trusted state's files by role; the scenario serves each under `/trusted/<role>.json`. */
  trusted: TrustedState;
}

/** The scenario word of a case's outcome: `update`, `no-update` or `refuse-answer`. */
export const scenarioOutcome = (expected: string): 'update' | 'no-update' | 'refuse-answer' =>
  expected.startsWith('install ') ? 'update' : expected === 'none' ? 'no-update' : 'refuse-answer';

/**
 * Answers a case's requests (paths without the /scenario/<name> prefix): its files under
 * `/updates/stable/`, the installers its targets name under `/updates/stable/targets/`, and the trusted
 * state under `/trusted/<role>.json`; 404 for anything else, as a static file server would.
 */
export function updateFilesHandler(
  vector: UpdateFilesCase,
  installers: ReadonlyMap<string, Uint8Array>,
): (request: Request) => Promise<Response> {
  const json = (text: string) => new Response(text, { headers: { 'content-type': 'application/json' } });
  return (request) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'GET') {
      const file = /^\/updates\/stable\/(.+)$/.exec(path)?.[1];
      if (file !== undefined && Object.hasOwn(vector.files, file)) return Promise.resolve(json(vector.files[file]!));
      const installer = file === undefined ? undefined : installers.get(file);
      if (installer !== undefined) {
        return Promise.resolve(new Response(installer as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/octet-stream' } }));
      }
      const role = /^\/trusted\/(root|timestamp|snapshot|targets)\.json$/.exec(path)?.[1] as keyof TrustedState | undefined;
      const trusted = role === undefined ? undefined : vector.trusted[role];
      if (trusted !== undefined) return Promise.resolve(json(trusted));
    }
    return Promise.resolve(new Response(JSON.stringify({ code: 'not_found', message: `No file at ${path}.` }), { status: 404 }));
  };
}
