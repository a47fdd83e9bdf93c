/**
 * The desktop app of the scenario tests, written from the C# recipes of docs/updates.md and
 * docs/licensing.md: its update check and license re-check, each check of the docs made with the
 * independent verifier of test/_update-signature.ts, and, for the careless apps, any one of them skipped.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkForUpdate, type TrustedState } from '../core/tuf/client.ts';
import { ROOT } from './_spawn.ts';
import { type AppCheck, type Expected, licenseRefusal, refusal } from './_update-signature.ts';

/** The test key's public half, as the docs publish it (the C# recipes' constant). */
export const PUBLIC_KEY = (JSON.parse(readFileSync(join(ROOT, 'docs/vectors/license-keys.json'), 'utf8')) as { publicKey: string }).publicKey;
export const INSTALLED = '2.6.2';
export const WINDOWS = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' };

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  bytes: Uint8Array;
}

export type Send = (path: string, init?: RequestInit) => Promise<Answer>;

export async function read(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => void (headers[name] = value));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers, body: new TextDecoder().decode(bytes), bytes };
}

/** Major.minor.build compared as Windows Installer does (the recipe's MsiVersion). */
const newer = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
};

/** The verifier's refusal, or the error it met (a covered header missing): null when genuine. */
export const checked = (answer: Answer, now: number, expected: Expected = { tag: 'update' }) => {
  try {
    return refusal(answer, PUBLIC_KEY, now, expected);
  } catch (error) {
    return (error as Error).message;
  }
};

/**
 * The desktop app's update check, as docs/updates.md orders it: verify version, verify the redirect,
 * check the installer. `careless` names the one check it skips.
 */
export async function updateCheck(send: Send, now: number, careless?: AppCheck): Promise<string> {
  const skips = (check: AppCheck) => careless === check;
  const expect = (more: Partial<Expected> = {}): Expected => ({ tag: 'update', ...more, ...(careless === undefined ? {} : { careless }) });
  const version = await send('/api/v1/version');
  if (version.status === 429) return skips('retry-after') ? 'retry-later at its usual interval' : `retry-later after ${version.headers['retry-after']} s`;
  if (version.status !== 200) return `retry-later: ${(JSON.parse(version.body) as { code: string }).code}`;
  const refused = checked(version, now, expect());
  if (refused !== null) return `refuse-answer: ${refused}`;
  const offered = (JSON.parse(version.body) as { version: string }).version;
  if (skips('newer-only') ? offered === INSTALLED : !newer(offered, INSTALLED)) return 'no-update';
  const download = await send('/api/v1/download', skips('user-agent') ? {} : { headers: WINDOWS });
  const redirect = download.status === 302 ? checked(download, now, expect({ version: offered })) : `status ${download.status}`;
  if (redirect !== null) return `refuse-answer: ${redirect}`;
  const installer = await send(download.headers['location']!);
  const digest = `sha-256=:${createHash('sha256').update(installer.bytes).digest('base64')}:`;
  const signed = download.headers['installer-digest'];
  const digestHolds = signed === undefined ? skips('installer-required') : signed === digest || skips('installer-digest');
  const size = download.headers['installer-size'];
  if (installer.status !== 200 || !digestHolds || (size !== undefined && String(installer.bytes.length) !== size)) return `refuse-installer ${offered}`;
  // Release-Critical counts only when the signature covers it.
  const covered = /"release-critical"/.test(download.headers['signature-input'] ?? '') || skips('critical-signed');
  return `${download.headers['release-critical'] === '?1' && covered ? 'critical-update' : 'update'} ${offered}`;
}

/** The desktop app's license re-check, as docs/licensing.md writes it: a fresh nonce, a genuine standing about this key. */
export async function licenseCheck(send: Send, now: number, licenseKey: string, careless?: AppCheck): Promise<string> {
  // The careless app about nonces sends none, and so checks none.
  const nonce = careless === 'nonce' ? undefined : randomBytes(16).toString('base64url');
  const answer = await send('/api/v1/licenses/validate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey, nonce }),
  });
  if (answer.status !== 200) return `retry-later: ${answer.status}`;
  let refused: string | null;
  try {
    refused = licenseRefusal(answer, PUBLIC_KEY, now, licenseKey, nonce, careless);
  } catch (error) {
    refused = (error as Error).message;
  }
  if (refused !== null) return `refuse-answer: ${refused}`;
  const standing = JSON.parse(answer.body) as { standing: string; validUntil: string | null };
  return standing.standing === 'valid' ? `lease-renewed to ${standing.validUntil}` : standing.standing === 'revoked' ? 'stop' : 'keep-lease';
}

/** What GET /scenarios lists for an update-files scenario. */
export interface UpdateFilesListed {
  updatesBase: string;
  rootUrl: string;
  trustedUrls: Record<string, string>;
  now: string;
  installId: string;
  installedVersion: string;
  expected: string;
}

/**
 * The desktop app's update check over the TUF update files, with the package's client (core/tuf/client.ts):
 * its trusted state read from the scenario's trusted URLs, its files from `updatesBase`, and for an
 * install, the installer from `targets/{sha256}.{name}`, checked for length and SHA-256. Ends as the
 * scenario outcomes do: `update <version>`, `no-update`, `refuse-answer: <reason>`, `refuse-installer <version>`.
 */
export async function updateFilesCheck(send: Send, listed: UpdateFilesListed): Promise<string> {
  const trusted: Record<string, string> = {};
  for (const [role, url] of Object.entries(listed.trustedUrls)) trusted[role] = (await send(url)).body;
  const result = await checkForUpdate({
    fetch: async (path) => {
      const answer = await send(`${listed.updatesBase}${path}`);
      return answer.status === 200 ? answer.bytes : null;
    },
    trusted: trusted as unknown as TrustedState,
    now: Date.parse(listed.now),
    installId: listed.installId,
    installedVersion: listed.installedVersion,
  });
  if (result.outcome === 'refuse') return `refuse-answer: ${result.reason}`;
  if (result.outcome === 'none') return 'no-update';
  const installer = await send(`${listed.updatesBase}targets/${result.target.hashes.sha256}.${result.name}`);
  const holds = installer.status === 200 && installer.bytes.length === result.target.length &&
    createHash('sha256').update(installer.bytes).digest('hex') === result.target.hashes.sha256;
  return `${holds ? 'update' : 'refuse-installer'} ${result.version}`;
}
