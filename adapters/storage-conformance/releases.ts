/**
 * Contract: releases are kept exactly, newest first; a version is published once; rollout changes and
 * pulls are kept, and a pull keeps its first time. The audit trail keeps what the operator changed.
 */
import * as assert from './assert.ts';
import { type ContractSuite, current, oneChangeEach } from './context.ts';
import type { StorageChange } from '../../core/ports/change.ts';
import type { NewEndpoint } from '../../core/ports/events.ts';
import type { RampPlan, Release } from '../../core/ports/release-store.ts';
import { newRelease, storedRelease } from './fixtures.ts';

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0, 5);
/** An endpoint that takes every event, so that the events a change writes are kept. */
const ENDPOINT: NewEndpoint = { url: 'http://127.0.0.1:9/r', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T0 };

export function releasesContract(test: ContractSuite): void {
  test('releases come back newest first with every field; a version is published once', async (context) => {
    const { releases } = oneChangeEach(current(context).storage);
    const older = newRelease('2.4.1', 100, T0);
    const newer = newRelease('2.5.0', 10, T0 + 1, { notesUrl: 'https://example.com/notes/2.5.0' });
    assert.equal(await releases.listReleases(), [], 'no release, none listed: listReleases()');
    assert.is(await releases.publishRelease(older), true, 'a new version is published: publishRelease()');
    assert.is(await releases.publishRelease(newer), true, 'a new version is published: publishRelease()');
    assert.is(
      await releases.publishRelease(newRelease('2.5.0', 100, T0 + 2, { msiUrl: 'https://other.example.com/x.msi' })),
      false,
      'a version is published once: a second publishRelease()',
    );
    assert.equal(await releases.listReleases(), [storedRelease(newer), storedRelease(older)], 'releases list newest first, every field kept: listReleases()');
  });

  test('the installer digest, size and critical flag are kept exactly', async (context) => {
    const { releases } = oneChangeEach(current(context).storage);
    const sha256 = 'ab'.repeat(32);
    const size = 2 ** 40 + 3;
    await releases.publishRelease(newRelease('2.6.0', 5, T0, { sha256, size, critical: true }));
    assert.equal(
      await releases.listReleases(),
      [storedRelease(newRelease('2.6.0', 5, T0), { sha256, size, critical: true })],
      'the installer digest, size and critical flag are kept exactly: listReleases()',
    );
  });

  test('a rollout change, a pull and a restore are kept; pulling twice keeps the first time; a pulled one is not widened', async (context) => {
    const { releases } = oneChangeEach(current(context).storage);
    const published = newRelease('2.5.0', 10, T0);
    await releases.publishRelease(published);
    const base = storedRelease(published);
    assert.equal(await releases.setRollout('2.5.0', 50), { ...base, rolloutBasisPoints: 50 }, 'a rollout change answers the release afterwards: setRollout()');
    assert.equal((await releases.pullRelease('2.5.0', T0 + 10))?.pulledAt, T0 + 10, 'a pull keeps its time: pullRelease().pulledAt');
    assert.equal((await releases.pullRelease('2.5.0', T0 + 20))?.pulledAt, T0 + 10, 'pulling twice keeps the first time: pullRelease().pulledAt');
    assert.is(await releases.setRollout('2.5.0', 100), null, 'a pulled release keeps its rollout');
    assert.is(await releases.setRollout('9.9.9', 50), null, 'an unknown version is null: setRollout()');
    assert.is(await releases.pullRelease('9.9.9', T0), null, 'an unknown version is null: pullRelease()');
    assert.is(await releases.restoreRelease('9.9.9'), null, 'an unknown version is null: restoreRelease()');
    assert.equal(
      (await releases.listReleases()).map((r) => [r.version, r.rolloutBasisPoints, r.pulledAt]),
      [['2.5.0', 50, T0 + 10]],
      'a pulled release keeps its rollout: listReleases() [version, rolloutBasisPoints, pulledAt]',
    );
    assert.equal(await releases.restoreRelease('2.5.0'), { ...base, rolloutBasisPoints: 50 }, 'a restore serves the release again: restoreRelease()');
    assert.equal(
      (await releases.listReleases()).map((r) => [r.version, r.rolloutBasisPoints, r.pulledAt]),
      [['2.5.0', 50, null]],
      'a restored release is not pulled: listReleases() [version, rolloutBasisPoints, pulledAt]',
    );
  });

  test('a ramp plan is kept; a halt holds once; a resume moves the plan; a pull ends it at the rollout given; a widen ends it', async (context) => {
    const { releases, outbox } = oneChangeEach(current(context).storage);
    await outbox.addEndpoint(ENDPOINT);
    const ramp = { basisPoints: [50, 500, 2500, 10000], everyMs: 86_400_000, startAt: T0 };
    await releases.publishRelease(newRelease('2.6.0', 50, T0, { ramp }));
    await releases.publishRelease(newRelease('2.5.0', 100, T0 - 1));
    const base = storedRelease(newRelease('2.6.0', 50, T0));
    assert.equal(
      (await releases.listReleases()).find((r) => r.version === '2.6.0'),
      { ...base, ramp, haltedAt: null, haltReason: null },
      'a ramp plan is kept: listReleases() 2.6.0',
    );
    const { storage } = current(context);
    /** A change that writes its event only when the store changed something. */
    const reported = (type: 'release.halted' | 'release.resumed', write: (tx: StorageChange) => Promise<Release | null>) =>
      storage.change(async (tx) => {
        const changed = await write(tx);
        if (changed) await tx.outbox.enqueue({ type, data: { version: changed.version } }, T0);
        return changed;
      });
    assert.equal(await reported('release.halted', (tx) => tx.releases.haltRelease('2.6.0', T0 + 10, '20 reports')), {
      ...base,
      ramp,
      haltedAt: T0 + 10,
      haltReason: '20 reports',
    }, 'a halt holds the ramp at its time with its reason: haltRelease()');
    assert.is(await reported('release.halted', (tx) => tx.releases.haltRelease('2.6.0', T0 + 20, 'again')), null, 'halted once');
    assert.is(await releases.haltRelease('2.5.0', T0 + 20, 'no plan'), null, 'no plan, no halt');
    assert.is(await releases.resumeRelease('2.5.0', ramp), null, 'not halted');
    const moved = { ...ramp, startAt: T0 + 1000 };
    assert.equal(await reported('release.resumed', (tx) => tx.releases.resumeRelease('2.6.0', moved)), {
      ...base,
      ramp: moved,
      haltedAt: null,
      haltReason: null,
    }, 'a resume moves the plan and clears the halt: resumeRelease()');
    assert.equal(
      (await outbox.listDeliveries({ limit: 10 })).map((d) => d.type).reverse(),
      ['release.halted', 'release.resumed'],
      'the halt and the resume wrote their events with them, once each: listDeliveries() types, oldest first',
    );
    await releases.haltRelease('2.6.0', T0 + 30, 'once more');
    assert.equal(await releases.pullRelease('2.6.0', T0 + 40, 5), {
      ...base,
      rolloutBasisPoints: 5,
      pulledAt: T0 + 40,
      ramp: null,
      haltedAt: T0 + 30,
      haltReason: 'once more',
    }, 'a pull with the rollout in force ends the plan at it: pullRelease()');
    assert.equal(
      await releases.restoreRelease('2.6.0'),
      { ...base, rolloutBasisPoints: 5, ramp: null, haltedAt: null, haltReason: null },
      'a restore clears the halt: restoreRelease()',
    );
    await releases.publishRelease(newRelease('2.7.0', 50, T0, { ramp }));
    assert.equal((await releases.setRollout('2.7.0', 30))?.ramp, null, 'a widen ends the plan: setRollout().ramp');
  });

  test('a ramp step is announced once, only while the plan is the one given; its event is written with it', async (context) => {
    const { releases, outbox } = oneChangeEach(current(context).storage);
    await outbox.addEndpoint(ENDPOINT);
    const ramp = { basisPoints: [50, 500, 2500, 10000], everyMs: 3_600_000, startAt: T0 };
    await releases.publishRelease(newRelease('2.6.0', 50, T0, { ramp }));
    const { storage } = current(context);
    const announce = (version: string, step: number, plan: RampPlan) =>
      storage.change(async (tx) => {
        const announced = await tx.releases.announceStep(version, step, plan);
        if (announced) await tx.outbox.enqueue({ type: 'release.rolled_out', data: { version, step } }, T0);
        return announced;
      });
    assert.is(await announce('2.6.0', 2, { ...ramp, startAt: T0 + 1 }), null, 'another plan (resumed meanwhile)');
    assert.is((await announce('2.6.0', 2, ramp))?.announcedStep, 2, 'a ramp step is announced: announceStep().announcedStep');
    assert.is(await announce('2.6.0', 2, ramp), null, 'announced once');
    assert.is(await announce('2.6.0', 1, ramp), null, 'never back');
    assert.is(await announce('9.9.9', 1, ramp), null, 'an unknown version is null: announceStep()');
    assert.equal(
      (await releases.listReleases()).map((r) => [r.version, r.announcedStep]),
      [['2.6.0', 2]],
      'the step announced is kept: listReleases() [version, announcedStep]',
    );
    await releases.setRollout('2.6.0', 30);
    assert.is(await announce('2.6.0', 3, ramp), null, 'a widen ended the plan');
    await releases.publishRelease(newRelease('2.7.0', 50, T0, { ramp }));
    await releases.pullRelease('2.7.0', T0 + 1);
    assert.is(await announce('2.7.0', 1, ramp), null, 'pulled');
    assert.equal(
      (await outbox.listDeliveries({ limit: 10 })).map((d) => d.type),
      ['release.rolled_out'],
      "an announced step's event is written with it, once: listDeliveries() types",
    );
  });

  test('a release keeps its channel; a promotion moves a live one; a rollout with a plan replaces the plan, none of its steps announced', async (context) => {
    const { releases } = oneChangeEach(current(context).storage);
    const beta = newRelease('2.8.0', 10000, T0, { channel: 'beta' });
    await releases.publishRelease(beta);
    await releases.publishRelease(newRelease('2.7.1', 10000, T0 + 1));
    assert.equal(
      (await releases.listReleases()).map((r) => [r.version, r.channel]),
      [['2.7.1', 'stable'], ['2.8.0', 'beta']],
      'a release published without a channel is on stable: listReleases() [version, channel]',
    );
    const ramp: RampPlan = { basisPoints: [100, 10000], everyMs: 3_600_000, startAt: T0 + 5 };
    await releases.announceStep('2.8.0', 0, ramp);
    assert.equal(
      await releases.promoteRelease('2.8.0', 'stable'),
      storedRelease(beta, { channel: 'stable' }),
      'a promotion answers the release afterwards: promoteRelease()',
    );
    assert.equal(
      await releases.setRollout('2.8.0', 100, ramp),
      storedRelease(beta, { channel: 'stable', rolloutBasisPoints: 100, ramp, announcedStep: 0 }),
      'a rollout with a plan keeps the plan given: setRollout(version, basisPoints, ramp)',
    );
    assert.is((await releases.announceStep('2.8.0', 1, ramp))?.announcedStep, 1, "its steps are announced as any plan's");
    const replanned = await releases.setRollout('2.8.0', 100, ramp);
    assert.is(replanned?.announcedStep, 0, 'a new plan starts with no step announced: setRollout().announcedStep');
    await releases.pullRelease('2.7.1', T0 + 10);
    assert.is(await releases.promoteRelease('2.7.1', 'beta'), null, 'a pulled release is not promoted: promoteRelease()');
    assert.is(await releases.promoteRelease('9.9.9', 'stable'), null, 'an unknown version is null: promoteRelease()');
    assert.equal(
      (await releases.listReleases()).map((r) => [r.version, r.channel]),
      [['2.7.1', 'stable'], ['2.8.0', 'stable']],
      'the channels as the promotions left them: listReleases() [version, channel]',
    );
  });

  test('a publish checked in a change that holds the releases: a refusal stores nothing and sends no event', async (context) => {
    const { storage } = current(context);
    const { releases, outbox } = storage;
    await storage.change(async (tx) => {
      await tx.outbox.addEndpoint(ENDPOINT);
      await tx.releases.publishRelease(newRelease('2.5.0', 100, T0));
    });
    const seen: string[][] = [];
    /** Publishes unless a stored release is higher (by text, enough here), as core's check does. */
    const publish = (version: string) =>
      storage.change(async (tx) => {
        await tx.lock('releases');
        const stored = (await tx.releases.listReleases()).map((r) => r.version);
        seen.push(stored);
        if (stored.some((v) => v > version)) throw new Error(`lower than ${stored[0]}`);
        if (!(await tx.releases.publishRelease(newRelease(version, 10, T0)))) return false;
        await tx.outbox.enqueue({ type: 'release.published', data: { version } }, T0);
        return true;
      });
    assert.is(
      await publish('2.4.0').catch((error: unknown) => String(error)),
      'Error: lower than 2.5.0',
      'a publish lower than a stored release is refused in its change: the error it threw',
    );
    // Two at once: the second reads what the first stored (it waits for the first's hold on the releases).
    assert.equal(
      await Promise.all([publish('2.6.0'), publish('2.6.0')]),
      [true, false],
      'a version is published once, of two at once: publishRelease() in two changes',
    );
    assert.equal(seen, [['2.5.0'], ['2.5.0'], ['2.6.0', '2.5.0']], 'the second change reads what the first stored: the versions each change read');
    assert.equal(
      (await releases.listReleases()).map((r) => r.version),
      ['2.6.0', '2.5.0'],
      'equal publish times list the later published first: listReleases() versions',
    );
    assert.equal((await outbox.listDeliveries({ limit: 10 })).length, 1, 'only 2.6.0 sent its event, once');
  });

  test('a rollout change, a pull and a restore write their events with them, in one change each', async (context) => {
    const { storage } = current(context);
    const { outbox } = storage;
    await storage.change(async (tx) => {
      await tx.outbox.addEndpoint(ENDPOINT);
      await tx.releases.publishRelease(newRelease('2.5.0', 10, T0));
    });
    const reported = (type: 'release.rolled_out' | 'release.pulled' | 'release.restored', write: (tx: StorageChange) => Promise<Release | null>) =>
      storage.change(async (tx) => {
        const r = (await write(tx))!;
        await tx.outbox.enqueue({ type, data: { version: r.version, rolloutBasisPoints: r.rolloutBasisPoints } }, T0);
      });
    await reported('release.rolled_out', (tx) => tx.releases.setRollout('2.5.0', 40));
    await reported('release.pulled', (tx) => tx.releases.pullRelease('2.5.0', T0 + 1));
    await reported('release.restored', (tx) => tx.releases.restoreRelease('2.5.0'));
    const deliveries = await outbox.listDeliveries({ limit: 10 });
    assert.equal(
      deliveries.map((d) => d.type).reverse(),
      ['release.rolled_out', 'release.pulled', 'release.restored'],
      'a rollout change, a pull and a restore write their events with them: listDeliveries() types, oldest first',
    );
  });

  test('the audit trail keeps every field and lists the latest first, at most the limit', async (context) => {
    const { audit } = oneChangeEach(current(context).storage);
    const entries = [
      { at: T0, action: 'release.published', target: '2.5.0 at 10%', requestId: 'r-1', actor: 'ada' },
      { at: T0 + 1, action: 'release.rollout', target: '2.5.0 at 100% «ok»', requestId: 'r-2', actor: null },
      { at: T0 + 2, action: 'release.pulled', target: '2.5.0', requestId: 'r-3', actor: 'operator' },
    ];
    for (const entry of entries) await audit.record(entry);
    const rows = entries.map((entry, i) => ({ ...entry, id: i + 1 }));
    assert.equal(await audit.list({ limit: 2 }), [rows[2], rows[1]], 'the audit trail lists the latest first, at most the limit: audit.list()');
    assert.equal(await audit.list({ limit: 10 }), [...rows].reverse(), 'the audit trail keeps every field: audit.list()');
  });
}
