/**
 * Ramp plans (docs/releases.md "Ramp plans"), with an injected clock: a plan's steps switch at their times
 * for GET /version and GET /releases, on memory, PGlite, and two instances on one PostgreSQL (published
 * through one, served by both); a manual widen ends the plan.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { referenceBucketOf } from '../_siphash.ts';
import type { App } from '../../core/app.ts';
import { clientKey } from '../../core/clients/client-ip.ts';
import { closeTestDatabases } from '../_databases.ts';
import { operate } from '../_operator.ts';
import { bodyJson, coreRequest } from '../_setup.ts';
import { type Instances, rampTargets } from '../_ramp-instances.ts';

const SECRET = 'ramp-test-voter-secret-0123456789';
const HOUR = 60 * 60 * 1000;
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const CLIENTS = Array.from({ length: 200 }, (_, i) => `198.51.${Math.floor(i / 100)}.${i % 100}`);

const TARGETS = rampTargets(SECRET);

const servedTo = async (
  app: App,
  ip: string,
) => ((bodyJson(await app.handle(coreRequest({ path: '/api/v1/version', clientIp: ip }))) as { version: string }).version);

async function buckets(): Promise<Map<string, number>> {
  const bucketOf = referenceBucketOf(SECRET);
  return new Map(CLIENTS.map((ip) => [ip, bucketOf(clientKey(ip))]));
}

/** Every client on every instance gets 2.6.0 exactly when its bucket is below `percent`. */
async function assertServed(instances: Instances, percent: number, when: string): Promise<void> {
  const of = await buckets();
  for (const [i, app] of instances.apps.entries()) {
    for (const ip of CLIENTS) {
      const expected = of.get(ip)! < percent ? '2.6.0' : '2.5.0';
      assert.is(await servedTo(app, ip), expected, `${when}, instance ${i + 1}, ${ip} (bucket ${of.get(ip)})`);
    }
  }
}

const releaseOf = async (app: App, version: string) =>
  ((await operate(app, 'GET', '/releases')).body['releases'] as Record<string, unknown>[]).find((r) => r['version'] === version)!;

for (const [name, open] of Object.entries(TARGETS)) {
  const test = suite(`ramp plans on ${name}`);

  test('the steps switch at their times on every instance; GET /releases shows the step in force and the next', async () => {
    const instances = await open();
    const { apps, clock } = instances;
    try {
      const start = clock.now();
      assert.is((await operate(apps[0]!, 'POST', '/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 100 })).status, 201);
      const published = await operate(apps[0]!, 'POST', '/releases', {
        version: '2.6.0',
        msiUrl: MSI('2.6.0'),
        rolloutPercent: 10,
        ramp: { steps: [10, 50, 100], everyMinutes: 60 },
      });
      assert.is(published.status, 201);
      assert.equal(published.body['ramp'], {
        basisPoints: [1000, 5000, 10000],
        steps: [10, 50, 100],
        everyMinutes: 60,
        startedAt: new Date(start).toISOString(),
        step: 1,
        nextStepAt: new Date(start + HOUR).toISOString(),
      });
      clock.advance(1000);
      await assertServed(instances, 10, 'first step');
      clock.set(start + HOUR - 1);
      await assertServed(instances, 10, 'a millisecond before the second step');
      clock.set(start + HOUR);
      await assertServed(instances, 50, 'second step');
      for (const app of apps) {
        const listed = await releaseOf(app, '2.6.0');
        assert.equal([listed['rolloutPercent'], listed['servedPercent']], [50, 50]);
        assert.equal(listed['ramp'], {
          basisPoints: [1000, 5000, 10000],
          steps: [10, 50, 100],
          everyMinutes: 60,
          startedAt: new Date(start).toISOString(),
          step: 2,
          nextStepAt: new Date(start + 2 * HOUR).toISOString(),
        });
      }
      clock.set(start + 2 * HOUR);
      await assertServed(instances, 100, 'last step');
      assert.equal(((await releaseOf(apps.at(-1)!, '2.6.0'))['ramp'] as Record<string, unknown>)['nextStepAt'], null);
    } finally {
      await instances.close();
    }
  });

  test('a manual widen ends the plan: its percent stays, whatever the clock', async () => {
    const instances = await open();
    const { apps, clock } = instances;
    try {
      const start = clock.now();
      await operate(apps[0]!, 'POST', '/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 100 });
      await operate(apps[0]!, 'POST', '/releases', {
        version: '2.6.0',
        msiUrl: MSI('2.6.0'),
        rolloutPercent: 10,
        ramp: { steps: [10, 50, 100], everyMinutes: 60 },
      });
      clock.set(start + HOUR);
      const widened = await operate(apps[0]!, 'POST', '/releases/2.6.0/rollout', { rolloutPercent: 20 });
      assert.equal([widened.status, widened.body['rolloutPercent'], widened.body['ramp']], [200, 20, null]);
      clock.set(start + 5 * HOUR);
      await assertServed(instances, 20, "after the widen, past the plan's end");
    } finally {
      await instances.close();
    }
  });

  test.after(closeTestDatabases);
  test.run();
}
