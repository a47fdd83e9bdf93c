/**
 * The scenario server (`converter-site-api scenarios`, docs/conformance.md "Testing the desktop app"): each
 * scenario driven by a desktop app written here from the C# recipes of docs/updates.md and
 * docs/licensing.md, its signatures checked by the verifier of test/_update-signature.ts (node:crypto, from
 * the RFCs, none of the server's signing code) with the public key the docs publish. Every scenario ends
 * in the outcome GET /scenarios promises; then the command serves them on a real loopback socket.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenariosCommand } from '../../server/cli/scenarios.ts';
import { installerBytes, installerName } from '../../server/scenarios/installer.ts';
import { createScenarioServer } from '../../server/scenarios/server.ts';
import { manualClock } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';
import {
  checked,
  INSTALLED,
  licenseCheck,
  PUBLIC_KEY,
  read,
  type Send,
  updateCheck,
  updateFilesCheck,
  type UpdateFilesListed,
  WINDOWS,
} from '../_scenario-app.ts';
import { licenseRefusal } from '../_update-signature.ts';

const OTHER_PUBLIC_KEY = (JSON.parse(readFileSync(join(ROOT, 'docs/vectors/update-signatures.json'), 'utf8')) as { publicKey: string }).publicKey;
const BASE = 'http://127.0.0.1:8787';

/** What each scenario must end in, as the docs' table says. */
const OUTCOMES: Record<string, string> = {
  'no-update': 'no-update',
  'update-offered': 'update 2.7.0',
  'older-release': 'no-update',
  'staged-outside': 'no-update',
  'critical-update': 'critical-update 2.7.0',
  'pulled-release': 'update 2.7.0',
  'expired-signature': 'refuse-answer: expired',
  'future-signature': 'refuse-answer: from the future',
  'tampered-body': 'refuse-answer: the body does not match Content-Digest',
  'tampered-installer-digest': 'refuse-answer: the signature does not hold',
  'installer-mismatch': 'refuse-installer 2.7.0',
  'no-installer-digest': 'refuse-installer 2.7.0',
  'replayed-download': 'refuse-answer: another version',
  'update-other-key': 'refuse-answer: another algorithm or key',
  'other-algorithm': 'refuse-answer: another algorithm or key',
  'standing-signature': 'refuse-answer: another tag',
  'body-not-covered': 'refuse-answer: the body or the Location is not covered',
  'unsigned-critical': 'update 2.7.0',
  'rate-limited': 'retry-later after 60 s',
  'server-error': 'retry-later: internal_error',
  'license-valid': 'lease-renewed to 2026-12-05T12:00:00Z',
  'license-revoked': 'stop',
  'license-unknown': 'keep-lease',
  'license-other-key': 'refuse-answer: another algorithm or key',
  'license-replayed': 'refuse-answer: another nonce',
  'license-swapped-key': 'refuse-answer: an answer about another key',
  'license-update-signature': 'refuse-answer: another tag',
  'files-good': 'update 2.7.0',
  'files-expired': 'refuse-answer: stale',
  'files-expired-targets': 'refuse-answer: expired',
  'files-rolled-back-timestamp': 'refuse-answer: rollback',
  'files-rolled-back-snapshot': 'refuse-answer: rollback',
  'files-mix-and-match': 'refuse-answer: hash-mismatch',
  'files-wrong-key': 'refuse-answer: unknown-key',
  'files-tampered-timestamp': 'refuse-answer: bad-signature',
  'files-rotated-root': 'update 2.7.0',
  'files-rotated-online-key': 'update 2.7.0',
  'files-halted': 'no-update',
  'files-pulled': 'update 2.7.0',
  'files-ramp-edge-at': 'update 2.7.0',
  'files-ramp-edge-before': 'no-update',
  'files-fractional-percent-in': 'update 2.7.0',
  'files-fractional-percent-out': 'no-update',
  'files-hotfix-cohort': 'update 2.7.1',
  'files-hotfix-later-cohort': 'no-update',
  'files-wrong-clock': 'refuse-answer: wrong-clock',
};

interface Listed extends Partial<UpdateFilesListed> {
  name: string;
  check: 'update' | 'license' | 'update-files';
  apiBase: string;
  outcome: string;
  correct: string;
  licenseKey?: string;
}

async function createInProcess() {
  const clock = manualClock(Date.UTC(2026, 10, 21, 12, 0, 0));
  const server = await createScenarioServer({ baseUrl: BASE, clock });
  const from = (clientIp: string): Send => async (path, init) => read(await server.handle(new Request(new URL(path, BASE), init), clientIp));
  const listing = JSON.parse((await from('127.0.0.1')('/scenarios')).body) as { publicKey: string; installedVersion: string; scenarios: Listed[] };
  return { clock, server, from, listing };
}

/**
 * One scenario server for every in-process test: they only read (a few requests a scenario, within each
 * scenario's quota of 120; the clock never moves), and building its 46 apps is the slow part.
 */
let shared: ReturnType<typeof createInProcess> | null = null;
const startInProcess = () => (shared ??= createInProcess());

test("GET /scenarios lists every scenario with its address, what a correct app does and its outcome, under the docs' test key", async () => {
  const { listing } = await startInProcess();
  assert.is(listing.publicKey, PUBLIC_KEY);
  assert.is(listing.installedVersion, INSTALLED);
  assert.equal(listing.scenarios.map((s) => s.name), Object.keys(OUTCOMES));
  for (const scenario of listing.scenarios) {
    assert.is(scenario.apiBase, `${BASE}/scenario/${scenario.name}/api/v1`);
    assert.ok(scenario.correct.length > 20, scenario.name);
    assert.is(scenario.outcome, OUTCOMES[scenario.name]!.split(/[ :]/)[0], scenario.name);
    assert.is(scenario.licenseKey !== undefined, scenario.check === 'license', scenario.name);
    assert.is(scenario.rootUrl !== undefined, scenario.check === 'update-files', scenario.name);
  }
});

test('each update-files scenario serves its case of docs/vectors/update-files.json: the files, the trusted state, the clock, the install and the outcome', async () => {
  const { from, listing } = await startInProcess();
  const vectors = JSON.parse(readFileSync(join(ROOT, 'docs/vectors/update-files.json'), 'utf8')) as {
    cases: {
      name: string;
      now: string;
      installId: string;
      installedVersion: string;
      expected: string;
      trusted: Record<string, string>;
      files: Record<string, string>;
    }[];
  };
  const files = listing.scenarios.filter((s) => s.check === 'update-files');
  assert.equal(files.map((s) => s.name), vectors.cases.map((c) => `files-${c.name}`));
  for (const vector of vectors.cases) {
    const scenario = files.find((s) => s.name === `files-${vector.name}`)!;
    assert.equal([scenario.now, scenario.installId, scenario.installedVersion, scenario.expected], [
      vector.now,
      vector.installId,
      vector.installedVersion,
      vector.expected,
    ]);
    assert.is(scenario.rootUrl, `${BASE}/scenario/${scenario.name}/trusted/root.json`);
    assert.is(scenario.updatesBase, `${BASE}/scenario/${scenario.name}/updates/stable/`);
    for (const [role, url] of Object.entries(scenario.trustedUrls!)) assert.is((await from('127.0.0.1')(url)).body, vector.trusted[role], url);
    for (const [path, text] of Object.entries(vector.files)) assert.is((await from('127.0.0.1')(`${scenario.updatesBase}${path}`)).body, text, path);
    assert.is((await from('127.0.0.1')(`${scenario.updatesBase}99.root.json`)).status, 404);
  }
});

test("each scenario, driven by the app of the docs' recipes, ends in its outcome", async () => {
  const { clock, from, listing } = await startInProcess();
  const now = Math.floor(clock.now() / 1000);
  for (const scenario of listing.scenarios) {
    const send: Send = (path, init) => from('127.0.0.1')(path.startsWith('http') ? path : `/scenario/${scenario.name}${path}`, init);
    const outcome = scenario.check === 'update'
      ? await updateCheck(send, now)
      : scenario.check === 'update-files'
      ? await updateFilesCheck(send, scenario as Listed & UpdateFilesListed)
      : await licenseCheck(send, now, scenario.licenseKey!);
    assert.is(outcome, OUTCOMES[scenario.name], scenario.name);
  }
});

test('no-installer-digest: genuine answers without Installer-Digest; an app that checks the digest only when present installs it, one that requires it does not', async () => {
  const { clock, from } = await startInProcess();
  const now = Math.floor(clock.now() / 1000);
  const send: Send = (path, init) => from('127.0.0.1')(path.startsWith('http') ? path : `/scenario/no-installer-digest${path}`, init);
  const version = await send('/api/v1/version');
  const download = await send('/api/v1/download', { headers: WINDOWS });
  assert.is(checked(version, now), null);
  assert.is(checked(download, now, { tag: 'update', version: '2.7.0' }), null);
  for (const answer of [version, download]) {
    assert.is(answer.headers['installer-digest'], undefined);
    assert.is(answer.headers['installer-size'], undefined);
  }
  // The careless app: compares the digest only when the answer has one.
  const installer = await send(download.headers['location']!);
  const digest = `sha-256=:${createHash('sha256').update(installer.bytes).digest('base64')}:`;
  const careless = download.headers['installer-digest'] === undefined || download.headers['installer-digest'] === digest
    ? 'update 2.7.0'
    : 'refuse-installer 2.7.0';
  assert.is(careless, 'update 2.7.0', 'the careless app would install it: the scenario tells the two apart');
  assert.is(await updateCheck(send, now), 'refuse-installer 2.7.0');
});

test("the example config's baseline names an installer digest and size (those of the stand-in installer for 2.4.1), so an app that requires Installer-Digest accepts it", async () => {
  const { download } = JSON.parse(readFileSync(join(ROOT, 'example/config.json'), 'utf8')) as {
    download: { msiUrl: string; msiSha256: string; msiSize: number };
  };
  const standIn = installerBytes('2.4.1');
  assert.ok(download.msiUrl.endsWith(installerName('2.4.1')), download.msiUrl);
  assert.is(download.msiSha256, createHash('sha256').update(standIn).digest('hex'));
  assert.is(download.msiSize, standIn.length);
});

test('replayed-download: the redirect to 2.6.2 is genuine and unexpired, so only an app that compares Release-Version with the offered version refuses it', async () => {
  const { clock, from } = await startInProcess();
  const now = Math.floor(clock.now() / 1000);
  const send: Send = (path, init) => from('127.0.0.1')(`/scenario/replayed-download${path}`, init);
  assert.is((JSON.parse((await send('/api/v1/version')).body) as { version: string }).version, '2.7.0');
  const download = await send('/api/v1/download', { headers: WINDOWS });
  assert.is(download.headers['release-version'], '2.6.2');
  assert.is(checked(download, now, { tag: 'update' }), null, 'the careless app, which checks the signature only, would follow it');
  assert.is(checked(download, now, { tag: 'update', version: '2.7.0' }), 'another version');
});

test('older-release: a genuine answer below the installed version; an app that updates whenever the version differs would downgrade', async () => {
  const { clock, from } = await startInProcess();
  const now = Math.floor(clock.now() / 1000);
  const send: Send = (path, init) => from('127.0.0.1')(path.startsWith('http') ? path : `/scenario/older-release${path}`, init);
  const version = await send('/api/v1/version');
  assert.is(checked(version, now), null);
  const offered = (JSON.parse(version.body) as { version: string }).version;
  assert.is(offered, '2.6.1');
  assert.is(await updateCheck(send, now, 'newer-only'), 'update 2.6.1', 'the careless app, which updates when the version differs, would install it');
  assert.is(await updateCheck(send, now), 'no-update');
});

test('staged-outside: the loopback clients of both families are outside the 10 % stage; pulled-release never offers 2.8.0', async () => {
  const { clock, from } = await startInProcess();
  const now = Math.floor(clock.now() / 1000);
  for (const ip of ['127.0.0.1', '::1']) {
    assert.is(await updateCheck((path, init) => from(ip)(path.startsWith('http') ? path : `/scenario/staged-outside${path}`, init), now), 'no-update', ip);
  }
  const pulled = await from('127.0.0.1')('/scenario/pulled-release/api/v1/version');
  assert.is((JSON.parse(pulled.body) as { version: string }).version, '2.7.0');
});

test("the forgeries are what they say: the tampered digest names the bytes served, the mismatched installer is other bytes, the other key's standing is genuine under that key", async () => {
  const { clock, from, listing } = await startInProcess();
  const now = Math.floor(clock.now() / 1000);
  const get = (path: string, init?: RequestInit) => from('127.0.0.1')(path, init);
  const forged = await get('/scenario/tampered-installer-digest/api/v1/download', { headers: WINDOWS });
  const served = await get(forged.headers['location']!);
  assert.is(forged.headers['installer-digest'], `sha-256=:${createHash('sha256').update(served.bytes).digest('base64')}:`);
  const genuine = await get('/scenario/installer-mismatch/api/v1/download', { headers: WINDOWS });
  assert.is(checked(genuine, now, { tag: 'update', version: '2.7.0' }), null);
  const swapped = await get(genuine.headers['location']!);
  assert.match(swapped.body, 'NOT the release: other bytes');
  assert.is(String(swapped.bytes.length), genuine.headers['installer-size'], 'other bytes of the same size: only the digest tells them apart');
  const licenseKey = listing.scenarios.find((s) => s.name === 'license-other-key')!.licenseKey!;
  const other = await get('/scenario/license-other-key/api/v1/licenses/validate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey }),
  });
  assert.is(licenseRefusal(other, OTHER_PUBLIC_KEY, now, licenseKey), null);
  assert.is(JSON.parse(other.body).standing, 'valid');
});

test('`scenarios --port 0` serves on 127.0.0.1: the listing and an installer over a real socket, until stopped', async () => {
  let err = '';
  let stop = () => {};
  let printed = (_: string) => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const address = new Promise<string>((resolve) => (printed = resolve));
  const running = runScenariosCommand(['--port', '0'], { stdout: (text) => printed(text), stderr: (text) => void (err += text) }, stopped);
  const url = (await Promise.race([address, running.then((code) => `exited with ${code}`)])).trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(err, `46 scenarios at ${url}/scenarios, signed with the TEST key ${PUBLIC_KEY}`);
  const listing = (await (await fetch(`${url}/scenarios`)).json()) as { scenarios: Listed[] };
  assert.is(listing.scenarios[1]!.apiBase, `${url}/scenario/update-offered/api/v1`);
  const download = await fetch(`${url}/scenario/update-offered/api/v1/download`, { headers: WINDOWS, redirect: 'manual' });
  const location = download.headers.get('location')!;
  assert.ok(location.startsWith(`${url}/scenario/update-offered/installer/`), location);
  const installer = new Uint8Array(await (await fetch(location)).arrayBuffer());
  assert.is(`sha-256=:${createHash('sha256').update(installer).digest('base64')}:`, download.headers.get('installer-digest'));
  stop();
  assert.is(await running, 0);
});

test('usage: --port is required and must be a port', async () => {
  const io = { stdout: () => {}, stderr: () => {} };
  for (const [args, message] of [[[], '--port is required'], [['--port', 'http'], '--port must be a port number from 0 to 65535, not "http"']] as const) {
    const error = await runScenariosCommand([...args], io).catch((e: unknown) => e);
    assert.is((error as Error).message, message);
  }
});

test.run();
