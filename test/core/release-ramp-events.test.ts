/**
 * Ramp steps are announced (docs/releases.md "Ramp plans"): each step a plan reaches writes one
 * `release.rolled_out` event and one `release.rollout` audit row by no operator (the system), found by
 * the release view's next read (a request's, or the server's every second), once per step however many
 * instances read it. With an injected clock, on memory, PGlite and two instances on one PostgreSQL.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { App } from '../../core/app.ts';
import { closeTestDatabases } from '../_databases.ts';
import { operate } from '../_operator.ts';
import { coreRequest } from '../_setup.ts';
import { type Instances, rampTargets } from '../_ramp-instances.ts';

const HOUR = 60 * 60 * 1000;
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

const TARGETS = rampTargets('ramp-events-voter-secret-0123456789');

/** An update check on every instance (each reads the releases when its last read is a second old). */
const checkEverywhere = async (instances: Instances) => {
  for (const app of instances.apps) assert.is((await app.handle(coreRequest({ path: '/api/v1/version', clientIp: '198.51.100.7' }))).status, 200);
};

/** The audit rows of releases, oldest first, as [actor, action, target]. */
const releaseRows = async (app: App) =>
  ((await operate(app, 'GET', '/audit?action=release.')).body['entries'] as { actor: string | null; action: string; target: string }[])
    .map((e) => [e.actor, e.action, e.target])
    .reverse();

/** The events written for the endpoint subscribed to everything, oldest first, as [type, data]. */
const eventsSent = async (instances: Instances) =>
  (await instances.storage.outbox.claimDue(instances.clock.now() + 10 * 24 * HOUR, 1000, 100))
    .map((d) => JSON.parse(d.body) as { type: string; data: Record<string, unknown> })
    .map((e) => [e.type, e.data['version'], e.data['rolloutPercent'], e.data['servedPercent'], (e.data['ramp'] as { step: number } | null)?.step ?? null]);

for (const [name, open] of Object.entries(TARGETS)) {
  const test = suite(`ramp step events on ${name}`);

  test('each step reached writes one release.rolled_out and one system audit row, whichever instance reads first', async () => {
    const instances = await open();
    const { apps, clock } = instances;
    try {
      await instances.storage.change((tx) =>
        tx.outbox.addEndpoint({
          url: 'http://127.0.0.1:9/all',
          secret: 'whsec_AAAA',
          events: [],
          format: 'standard',
          createdAt: clock.now(),
        })
      );
      const start = clock.now();
      assert.is((await operate(apps[0]!, 'POST', '/releases', { version: '2.7.0', msiUrl: MSI('2.7.0'), rolloutPercent: 100 })).status, 201);
      const ramp = { steps: [10, 50, 100], everyMinutes: 60 };
      assert.is((await operate(apps[0]!, 'POST', '/releases', { version: '2.8.0', msiUrl: MSI('2.8.0'), rolloutPercent: 10, ramp })).status, 201);
      clock.set(start + HOUR - 1);
      await checkEverywhere(instances);
      clock.set(start + HOUR);
      await checkEverywhere(instances);
      clock.advance(2000);
      await checkEverywhere(instances);
      clock.set(start + 2 * HOUR + 5);
      await checkEverywhere(instances);
      clock.advance(2000);
      await checkEverywhere(instances);
      clock.set(start + 30 * HOUR);
      await checkEverywhere(instances);
      for (const app of apps) {
        assert.equal(await releaseRows(app), [
          ['operator', 'release.published', '2.7.0 at 100%'],
          ['operator', 'release.published', '2.8.0 at 10% on a ramp of 10, 50, 100% every 60 minutes'],
          [null, 'release.rollout', '2.8.0 at 50% (ramp step 2 of 3)'],
          [null, 'release.rollout', '2.8.0 at 100% (ramp step 3 of 3)'],
        ]);
      }
      assert.equal(await eventsSent(instances), [
        ['release.published', '2.7.0', 100, 100, null],
        ['release.published', '2.8.0', 10, 10, 1],
        ['release.rolled_out', '2.8.0', 50, 50, 2],
        ['release.rolled_out', '2.8.0', 100, 100, 3],
      ]);
    } finally {
      await instances.close();
    }
  });

  test('steps passed while nobody read are announced once, at the percent in force; after a widen or a pull nothing more', async () => {
    const instances = await open();
    const { apps, clock } = instances;
    try {
      await instances.storage.change((tx) =>
        tx.outbox.addEndpoint({
          url: 'http://127.0.0.1:9/all',
          secret: 'whsec_AAAA',
          events: [],
          format: 'standard',
          createdAt: clock.now(),
        })
      );
      const start = clock.now();
      const ramp = { steps: [1, 5, 25, 100], everyMinutes: 60 };
      await operate(apps[0]!, 'POST', '/releases', { version: '2.8.0', msiUrl: MSI('2.8.0'), rolloutPercent: 1, ramp });
      await operate(apps[0]!, 'POST', '/releases', { version: '2.9.0', msiUrl: MSI('2.9.0'), rolloutPercent: 1, ramp });
      assert.is((await operate(apps.at(-1)!, 'POST', '/releases/2.9.0/pull')).status, 200);
      clock.set(start + 2 * HOUR);
      await checkEverywhere(instances);
      assert.is((await operate(apps[0]!, 'POST', '/releases/2.8.0/rollout', { rolloutPercent: 30 })).status, 200);
      clock.set(start + 10 * HOUR);
      await checkEverywhere(instances);
      assert.equal(await releaseRows(apps[0]!), [
        ['operator', 'release.published', '2.8.0 at 1% on a ramp of 1, 5, 25, 100% every 60 minutes'],
        ['operator', 'release.published', '2.9.0 at 1% on a ramp of 1, 5, 25, 100% every 60 minutes'],
        ['operator', 'release.pulled', '2.9.0 (its ramp plan ends at 1%)'],
        [null, 'release.rollout', '2.8.0 at 25% (ramp step 3 of 4)'],
        ['operator', 'release.rollout', '2.8.0 at 30% (its ramp plan ends)'],
      ]);
      assert.equal((await eventsSent(instances)).map((e) => e.slice(0, 3)), [
        ['release.published', '2.8.0', 1],
        ['release.published', '2.9.0', 1],
        ['release.pulled', '2.9.0', 1],
        ['release.rolled_out', '2.8.0', 25],
        ['release.rolled_out', '2.8.0', 30],
      ]);
    } finally {
      await instances.close();
    }
  });

  test('an instance nobody asks announces a step at its next refreshReleases (the standalone server calls it every second)', async () => {
    const instances = await open();
    const { apps, clock } = instances;
    try {
      await instances.storage.change((tx) =>
        tx.outbox.addEndpoint({
          url: 'http://127.0.0.1:9/all',
          secret: 'whsec_AAAA',
          events: [],
          format: 'standard',
          createdAt: clock.now(),
        })
      );
      const start = clock.now();
      await operate(apps[0]!, 'POST', '/releases', { version: '2.8.0', msiUrl: MSI('2.8.0'), rolloutPercent: 10, ramp: { steps: [10, 100], everyMinutes: 1 } });
      clock.set(start + 60_000);
      for (const app of apps) await app.refreshReleases();
      assert.equal((await releaseRows(apps.at(-1)!)).at(-1), [null, 'release.rollout', '2.8.0 at 100% (ramp step 2 of 2)']);
      assert.equal((await eventsSent(instances)).map((e) => e.slice(0, 3)), [
        ['release.published', '2.8.0', 10],
        ['release.rolled_out', '2.8.0', 100],
      ]);
    } finally {
      await instances.close();
    }
  });

  test.after(closeTestDatabases);
  test.run();
}
