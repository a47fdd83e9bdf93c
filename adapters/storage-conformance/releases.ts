/**
 * Contract: releases are kept exactly, newest first; a version is published once; rollout changes and
 * pulls are kept, and a pull keeps its first time. The audit trail keeps what the operator changed.
 */
import * as assert from './assert.ts';
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
      { version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: notes, rolloutPercent: 10, publishedAt: T0 + 1, pulledAt: null, sha256: null, size: null, critical: false, ramp: null, haltedAt: null, haltReason: null, announcedStep: 0 },
      { version: '2.4.1', msiUrl: MSI('2.4.1'), notesUrl: null, rolloutPercent: 100, publishedAt: T0, pulledAt: null, sha256: null, size: null, critical: false, ramp: null, haltedAt: null, haltReason: null, announcedStep: 0 },
    ]);
  });

  test('the installer digest, size and critical flag are kept exactly', async (context) => {
    const { releases } = current(context).storage;
    const sha256 = 'ab'.repeat(32);
    const size = 2 ** 40 + 3;
    await releases.publishRelease({ version: '2.6.0', msiUrl: MSI('2.6.0'), notesUrl: null, rolloutPercent: 5, publishedAt: T0, sha256, size, critical: true });
    assert.equal(await releases.listReleases(), [
      { version: '2.6.0', msiUrl: MSI('2.6.0'), notesUrl: null, rolloutPercent: 5, publishedAt: T0, pulledAt: null, sha256, size, critical: true, ramp: null, haltedAt: null, haltReason: null, announcedStep: 0 },
    ]);
  });

  test('a rollout change, a pull and a restore are kept; pulling twice keeps the first time; a pulled one is not widened', async (context) => {
    const { releases } = current(context).storage;
    await releases.publishRelease({ version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: null, rolloutPercent: 10, publishedAt: T0 });
    const base = { version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: null, publishedAt: T0, sha256: null, size: null, critical: false, ramp: null, haltedAt: null, haltReason: null, announcedStep: 0 };
    assert.equal(await releases.setRollout('2.5.0', 50), { ...base, rolloutPercent: 50, pulledAt: null });
    assert.equal((await releases.pullRelease('2.5.0', T0 + 10))?.pulledAt, T0 + 10);
    assert.equal((await releases.pullRelease('2.5.0', T0 + 20))?.pulledAt, T0 + 10);
    assert.is(await releases.setRollout('2.5.0', 100), null, 'a pulled release keeps its percent');
    assert.is(await releases.setRollout('9.9.9', 50), null);
    assert.is(await releases.pullRelease('9.9.9', T0), null);
    assert.is(await releases.restoreRelease('9.9.9'), null);
    assert.equal((await releases.listReleases()).map((r) => [r.version, r.rolloutPercent, r.pulledAt]), [['2.5.0', 50, T0 + 10]]);
    assert.equal(await releases.restoreRelease('2.5.0'), { ...base, rolloutPercent: 50, pulledAt: null });
    assert.equal((await releases.listReleases()).map((r) => [r.version, r.rolloutPercent, r.pulledAt]), [['2.5.0', 50, null]]);
  });

  test('a ramp plan is kept; a halt holds once; a resume moves the plan; a pull ends it at the percent given; a widen ends it', async (context) => {
    const { releases, outbox } = current(context).storage;
    await outbox.addEndpoint({ url: 'http://127.0.0.1:9/r', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T0 });
    const ramp = { steps: [1, 5, 25, 100], everyMs: 86_400_000, startAt: T0 };
    await releases.publishRelease({ version: '2.6.0', msiUrl: MSI('2.6.0'), notesUrl: null, rolloutPercent: 1, publishedAt: T0, ramp });
    await releases.publishRelease({ version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: null, rolloutPercent: 100, publishedAt: T0 - 1 });
    const base = { version: '2.6.0', msiUrl: MSI('2.6.0'), notesUrl: null, rolloutPercent: 1, publishedAt: T0, pulledAt: null, sha256: null, size: null, critical: false, announcedStep: 0 };
    assert.equal((await releases.listReleases()).find((r) => r.version === '2.6.0'), { ...base, ramp, haltedAt: null, haltReason: null });
    const emit = (type: 'release.halted' | 'release.resumed') => (r: { version: string }) => ({ event: { type, data: { version: r.version } }, at: T0 });
    assert.equal(await releases.haltRelease('2.6.0', T0 + 10, '20 reports', emit('release.halted')), { ...base, ramp, haltedAt: T0 + 10, haltReason: '20 reports' });
    assert.is(await releases.haltRelease('2.6.0', T0 + 20, 'again', emit('release.halted')), null, 'halted once');
    assert.is(await releases.haltRelease('2.5.0', T0 + 20, 'no plan'), null, 'no plan, no halt');
    assert.is(await releases.resumeRelease('2.5.0', ramp), null, 'not halted');
    const moved = { ...ramp, startAt: T0 + 1000 };
    assert.equal(await releases.resumeRelease('2.6.0', moved, emit('release.resumed')), { ...base, ramp: moved, haltedAt: null, haltReason: null });
    assert.equal((await outbox.listDeliveries({ limit: 10 })).map((d) => d.type).reverse(), ['release.halted', 'release.resumed']);
    await releases.haltRelease('2.6.0', T0 + 30, 'once more');
    assert.equal(await releases.pullRelease('2.6.0', T0 + 40, undefined, 5), { ...base, rolloutPercent: 5, pulledAt: T0 + 40, ramp: null, haltedAt: T0 + 30, haltReason: 'once more' });
    assert.equal(await releases.restoreRelease('2.6.0'), { ...base, rolloutPercent: 5, ramp: null, haltedAt: null, haltReason: null });
    await releases.publishRelease({ version: '2.7.0', msiUrl: MSI('2.7.0'), notesUrl: null, rolloutPercent: 1, publishedAt: T0, ramp });
    assert.equal((await releases.setRollout('2.7.0', 30))?.ramp, null);
  });

  test('a ramp step is announced once, only while the plan is the one given; its event is written with it', async (context) => {
    const { releases, outbox } = current(context).storage;
    await outbox.addEndpoint({ url: 'http://127.0.0.1:9/r', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T0 });
    const ramp = { steps: [1, 5, 25, 100], everyMs: 3_600_000, startAt: T0 };
    await releases.publishRelease({ version: '2.6.0', msiUrl: MSI('2.6.0'), notesUrl: null, rolloutPercent: 1, publishedAt: T0, ramp });
    const emit = (r: { version: string; announcedStep: number }) => ({ event: { type: 'release.rolled_out' as const, data: { version: r.version, step: r.announcedStep } }, at: T0 });
    assert.is(await releases.announceStep('2.6.0', 2, { ...ramp, startAt: T0 + 1 }, emit), null, 'another plan (resumed meanwhile)');
    assert.is((await releases.announceStep('2.6.0', 2, ramp, emit))?.announcedStep, 2);
    assert.is(await releases.announceStep('2.6.0', 2, ramp, emit), null, 'announced once');
    assert.is(await releases.announceStep('2.6.0', 1, ramp, emit), null, 'never back');
    assert.is(await releases.announceStep('9.9.9', 1, ramp, emit), null);
    assert.equal((await releases.listReleases()).map((r) => [r.version, r.announcedStep]), [['2.6.0', 2]]);
    await releases.setRollout('2.6.0', 30);
    assert.is(await releases.announceStep('2.6.0', 3, ramp, emit), null, 'a widen ended the plan');
    await releases.publishRelease({ version: '2.7.0', msiUrl: MSI('2.7.0'), notesUrl: null, rolloutPercent: 1, publishedAt: T0, ramp });
    await releases.pullRelease('2.7.0', T0 + 1);
    assert.is(await releases.announceStep('2.7.0', 1, ramp, emit), null, 'pulled');
    assert.equal((await outbox.listDeliveries({ limit: 10 })).map((d) => d.type), ['release.rolled_out']);
  });

  test('admit sees every stored release before the insert; a refusal stores nothing and sends no event', async (context) => {
    const { releases, outbox } = current(context).storage;
    await outbox.addEndpoint({ url: 'http://127.0.0.1:9/r', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T0 });
    await releases.publishRelease({ version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: null, rolloutPercent: 100, publishedAt: T0 });
    const seen: string[][] = [];
    const emit = (r: { version: string }) => ({ event: { type: 'release.published' as const, data: { version: r.version } }, at: T0 });
    const refused = await releases.publishRelease({ version: '2.4.0', msiUrl: MSI('2.4.0'), notesUrl: null, rolloutPercent: 100, publishedAt: T0 + 1 }, emit, (stored) => {
      seen.push(stored.map((r) => r.version));
      throw new Error('lower than 2.5.0');
    }).catch((error: unknown) => String(error));
    assert.is(refused, 'Error: lower than 2.5.0');
    assert.is(await releases.publishRelease({ version: '2.6.0', msiUrl: MSI('2.6.0'), notesUrl: null, rolloutPercent: 10, publishedAt: T0 + 2 }, emit, (stored) => void seen.push(stored.map((r) => r.version))), true);
    assert.equal(seen, [['2.5.0'], ['2.5.0']]);
    assert.equal((await releases.listReleases()).map((r) => r.version), ['2.6.0', '2.5.0']);
    assert.equal((await outbox.listDeliveries({ limit: 10 })).length, 1, 'only 2.6.0 sent its event');
  });

  test('a rollout change, a pull and a restore write their events with them', async (context) => {
    const { releases, outbox } = current(context).storage;
    await outbox.addEndpoint({ url: 'http://127.0.0.1:9/r', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T0 });
    await releases.publishRelease({ version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: null, rolloutPercent: 10, publishedAt: T0 });
    const emit = (type: 'release.rolled_out' | 'release.pulled' | 'release.restored') => (r: { version: string; rolloutPercent: number }) => ({
      event: { type, data: { version: r.version, rolloutPercent: r.rolloutPercent } },
      at: T0,
    });
    await releases.setRollout('2.5.0', 40, emit('release.rolled_out'));
    await releases.pullRelease('2.5.0', T0 + 1, emit('release.pulled'));
    await releases.restoreRelease('2.5.0', emit('release.restored'));
    const deliveries = await outbox.listDeliveries({ limit: 10 });
    assert.equal(deliveries.map((d) => d.type).reverse(), ['release.rolled_out', 'release.pulled', 'release.restored']);
  });

  test('the audit trail keeps every field and lists the latest first, at most the limit', async (context) => {
    const { audit } = current(context).storage;
    const entries = [
      { at: T0, action: 'release.published', target: '2.5.0 at 10%', requestId: 'r-1', actor: 'ada' },
      { at: T0 + 1, action: 'release.rollout', target: '2.5.0 at 100% «ok»', requestId: 'r-2', actor: null },
      { at: T0 + 2, action: 'release.pulled', target: '2.5.0', requestId: 'r-3', actor: 'operator' },
    ];
    for (const entry of entries) await audit.record(entry);
    const rows = entries.map((entry, i) => ({ ...entry, id: i + 1 }));
    assert.equal(await audit.list({ limit: 2 }), [rows[2], rows[1]]);
    assert.equal(await audit.list({ limit: 10 }), [...rows].reverse());
  });
}
