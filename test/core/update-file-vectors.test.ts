/**
 * docs/vectors/update-files.json: the file is what scripts/update-file-vectors.ts makes; every case ends,
 * through core/tuf/client.ts, in its `expected` outcome; and tuf-js's Updater (a stock TUF 1.0 client,
 * in process with a fetcher over the case's files and its reference time set to the case's clock) accepts
 * or refuses each case as its `stockClient` says: as the package's client does, except `wrong-clock`,
 * the app's own rule beyond TUF.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkForUpdate, outcomeLine } from '../../core/tuf/client.ts';
import { makeUpdateFileVectors, UPDATE_FILES_VECTORS_PATH } from '../../scripts/update-file-vectors.ts';
import type { UpdateFilesCase } from '../../server/scenarios/update-files.ts';
import { MapFetcher, tufJsClient } from '../_tuf-js.ts';

const encoder = new TextEncoder();
const shipped = JSON.parse(readFileSync(UPDATE_FILES_VECTORS_PATH, 'utf8')) as { cases: UpdateFilesCase[] };

/** What tuf-js concludes: accept, or refuse with its error. */
async function stockClient(vector: UpdateFilesCase): Promise<string> {
  const client = tufJsClient(vector.trusted, new MapFetcher(vector.files));
  try {
    // tuf-js takes its reference time (5.1) when it is made; the case's clock replaces it.
    (client.updater as unknown as { trustedSet: { referenceTime: Date } }).trustedSet.referenceTime = new Date(Date.parse(vector.now));
    await client.updater.refresh();
    return 'accept';
  } catch (error) {
    return `refuse (${(error as Error).constructor.name}: ${(error as Error).message})`;
  } finally {
    client.remove();
  }
}

test('docs/vectors/update-files.json is what scripts/update-file-vectors.ts makes', async () => {
  assert.equal(shipped, JSON.parse(JSON.stringify(await makeUpdateFileVectors())), 'run node --import tsx scripts/update-file-vectors.ts');
});

test('the cases are those of the client kit, each with an outcome of its own kind', () => {
  assert.equal(shipped.cases.map((c) => `${c.name}: ${c.expected}`), [
    'good: install 2.7.0',
    'expired: refuse stale',
    'expired-targets: refuse expired',
    'rolled-back-timestamp: refuse rollback',
    'rolled-back-snapshot: refuse rollback',
    'mix-and-match: refuse hash-mismatch',
    'wrong-key: refuse unknown-key',
    'tampered-timestamp: refuse bad-signature',
    'rotated-root: install 2.7.0',
    'rotated-online-key: install 2.7.0',
    'halted: none',
    'pulled: install 2.7.0',
    'ramp-edge-at: install 2.7.0',
    'ramp-edge-before: none',
    'fractional-percent-in: install 2.7.0',
    'fractional-percent-out: none',
    'hotfix-cohort: install 2.7.1',
    'hotfix-later-cohort: none',
    'wrong-clock: refuse wrong-clock',
  ]);
  const at = (name: string) => shipped.cases.find((c) => c.name === name)!;
  assert.is(Date.parse(at('ramp-edge-at').now) - Date.parse(at('ramp-edge-before').now), 1);
  assert.is(at('hotfix-cohort').installedVersion, '2.7.0');
});

test('every case ends in its expected outcome through core/tuf/client.ts, and a success gives back the files it verified as the state to keep', async () => {
  for (const vector of shipped.cases) {
    const result = await checkForUpdate({
      fetch: (path) => Promise.resolve(vector.files[path] === undefined ? null : encoder.encode(vector.files[path])),
      trusted: vector.trusted,
      now: Date.parse(vector.now),
      installId: vector.installId,
      installedVersion: vector.installedVersion,
    });
    assert.is(outcomeLine(result), vector.expected, vector.name);
    if (result.outcome !== 'refuse') {
      assert.is(result.trusted.timestamp, vector.files['timestamp.json'], vector.name);
      const newest = Object.keys(vector.files).filter((p) => p.endsWith('.root.json')).sort().at(-1)!;
      assert.is(result.trusted.root, vector.files[newest], vector.name);
    }
  }
});

test('tuf-js accepts or refuses each case as stockClient says: as the package client does, but for wrong-clock', async () => {
  for (const vector of shipped.cases) {
    const stock = await stockClient(vector);
    assert.is(stock.split(' ')[0], vector.stockClient, `${vector.name}: ${stock}`);
    assert.is(vector.stockClient === 'refuse', vector.expected.startsWith('refuse') && vector.expected !== 'refuse wrong-clock', vector.name);
  }
});

test('a case served with a file missing is refused as missing, and the trusted root walked so far is kept', async () => {
  const vector = shipped.cases.find((c) => c.name === 'rotated-root')!;
  const files: Record<string, string> = { ...vector.files };
  delete files['1.snapshot.json'];
  const result = await checkForUpdate({
    fetch: (path) => Promise.resolve(files[path] === undefined ? null : encoder.encode(files[path])),
    trusted: vector.trusted,
    now: Date.parse(vector.now),
    installId: vector.installId,
    installedVersion: vector.installedVersion,
  });
  assert.is(outcomeLine(result), 'refuse missing');
  assert.is(result.trusted.root, vector.files['2.root.json']);
});

test.run();
