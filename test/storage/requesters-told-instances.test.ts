/**
 * Requesters are told once across instances: two apps on one PostgreSQL (and the single-instance storages)
 * sweep at the same time, repeatedly, and one mail is written per request; the same sweep on a pulled
 * and restored release writes none. The mark and the mail commit together in one unit of work.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { closeTestDatabases } from '../_databases.ts';
import { operateOk } from '../_operator.ts';
import { coreRequest } from '../_setup.ts';
import { rampTargets } from '../_ramp-instances.ts';

for (const [name, open] of Object.entries(rampTargets('told-instances-voter-secret-0123456789'))) {
  const test = suite(`requesters told once on ${name}`);
  test.after(closeTestDatabases);

  test('instances sweeping at once write one mail per request, and a pull and a restore write none', async () => {
    const instances = await open();
    const { apps, storage } = instances;
    try {
      const first = apps[0]!;
      for (const email of ['ann@example.com', 'bo@example.com']) {
        await first.handle(coreRequest({ method: 'POST', path: '/api/v1/feedback', json: { description: 'Folders please', type: 'feature_request', email } }));
      }
      const ids = (await storage.inbox.list({ limit: 10 })).map((entry) => entry.id);
      await operateOk(first, 'POST', '/feedback/feature', { ids, featureId: 3 });
      await operateOk(first, 'POST', '/releases', {
        version: '2.6.0',
        msiUrl: 'https://downloads.example.com/LegacySheetConverter-2.6.0-x64.msi',
        rolloutPercent: 100,
      });
      await operateOk(first, 'PATCH', '/roadmap/3', { release_version: '2.6.0' });
      const told = await Promise.all([...apps, ...apps].map((app) => app.processShippedRequests()));
      assert.is(told.reduce((sum, n) => sum + n, 0), 2, `told by each sweep: ${told}`);
      await operateOk(first, 'POST', '/releases/2.6.0/pull');
      await operateOk(first, 'POST', '/releases/2.6.0/restore');
      assert.equal(await Promise.all(apps.map((app) => app.processShippedRequests())), apps.map(() => 0));
      const mails = (await storage.mail.list({ limit: 10 })).filter((mail) => mail.kind === 'shipped');
      assert.equal(mails.map((mail) => mail.to).sort(), ['ann@example.com', 'bo@example.com']);
      assert.equal((await storage.shipping.told()).sort((a, b) => a - b), [...ids].sort((a, b) => a - b));
    } finally {
      await instances.close();
    }
  });

  test.run();
}
