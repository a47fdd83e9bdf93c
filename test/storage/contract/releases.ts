/**
 * Contract: releases are kept exactly, newest first; a version is published once; rollout changes and
 * pulls are kept, and a pull keeps its first time. The audit trail keeps what the operator changed.
 */
import * as assert from 'uvu/assert';
import { current, type ContractSuite } from './context.ts';

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0, 5);
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

export function releasesContract(test: ContractSuite): void {
  test('releases come back newest first with every field; a version is published once', async (context) => {
    const { releases } = current(context).storage;
    assert.equal(await releases.listReleases(), []);
    assert.is(await releases.publishRelease({ version: '2.4.1', msiUrl: MSI('2.4.1'), notesUrl: null, rolloutPercent: 100, publishedAt: T0 }), true);
    const notes = 'https://example.com/notes/2.5.0';
    assert.is(await releases.publishRelease({ version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: notes, rolloutPercent: 10, publishedAt: T0 + 1 }), true);
    assert.is(await releases.publishRelease({ version: '2.5.0', msiUrl: 'https://other.example.com/x.msi', notesUrl: null, rolloutPercent: 100, publishedAt: T0 + 2 }), false);
    assert.equal(await releases.listReleases(), [
      { version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: notes, rolloutPercent: 10, publishedAt: T0 + 1, pulledAt: null },
      { version: '2.4.1', msiUrl: MSI('2.4.1'), notesUrl: null, rolloutPercent: 100, publishedAt: T0, pulledAt: null },
    ]);
  });

  test('a rollout change and a pull are kept; pulling twice keeps the first time; unknown versions are null', async (context) => {
    const { releases } = current(context).storage;
    await releases.publishRelease({ version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: null, rolloutPercent: 10, publishedAt: T0 });
    assert.equal(await releases.setRollout('2.5.0', 50), { version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: null, rolloutPercent: 50, publishedAt: T0, pulledAt: null });
    assert.equal((await releases.pullRelease('2.5.0', T0 + 10))?.pulledAt, T0 + 10);
    assert.equal((await releases.pullRelease('2.5.0', T0 + 20))?.pulledAt, T0 + 10);
    assert.is(await releases.setRollout('9.9.9', 50), null);
    assert.is(await releases.pullRelease('9.9.9', T0), null);
    assert.equal((await releases.listReleases()).map((r) => [r.version, r.rolloutPercent, r.pulledAt]), [['2.5.0', 50, T0 + 10]]);
  });

  test('the audit trail keeps every field and lists the latest first, at most the limit', async (context) => {
    const { audit } = current(context).storage;
    const entries = [
      { at: T0, action: 'release.published', target: '2.5.0 at 10%', requestId: 'r-1' },
      { at: T0 + 1, action: 'release.rollout', target: '2.5.0 at 100% «ok»', requestId: 'r-2' },
      { at: T0 + 2, action: 'release.pulled', target: '2.5.0', requestId: 'r-3' },
    ];
    for (const entry of entries) await audit.record(entry);
    assert.equal(await audit.list(2), [entries[2], entries[1]]);
    assert.equal(await audit.list(10), [...entries].reverse());
  });
}
