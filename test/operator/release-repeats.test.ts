/**
 * A repeated pull or restore of a release changes nothing: it is answered as the first one was (the
 * release as it is) with no second audit row and no second event. Each wrote another audit row. In
 * process on memory storage, with an injected clock.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { operate, OPERATOR_TOKEN } from '../_operator.ts';
import { createTestApp } from '../_setup.ts';

const MSI = 'https://downloads.example.com/LegacySheetConverter-2.6.0-x64.msi';

test('pulling twice and restoring twice: the same answers, one audit row and one event each', async () => {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  await t.storage.change((tx) =>
    tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/all', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: t.clock.now() })
  );
  assert.is((await operate(t.app, 'POST', '/releases', { version: '2.6.0', msiUrl: MSI, rolloutPercent: 10 })).status, 201);
  t.clock.advance(1000);
  const pulled = await operate(t.app, 'POST', '/releases/2.6.0/pull');
  t.clock.advance(1000);
  assert.equal(await operate(t.app, 'POST', '/releases/2.6.0/pull'), pulled, 'answered as the first pull');
  assert.is((pulled.body as { pulledAt: string }).pulledAt, new Date(t.clock.now() - 1000).toISOString());
  t.clock.advance(1000);
  const restored = await operate(t.app, 'POST', '/releases/2.6.0/restore');
  assert.is(restored.status, 200);
  t.clock.advance(1000);
  assert.equal(await operate(t.app, 'POST', '/releases/2.6.0/restore'), restored, 'answered as the first restore');
  const rows = ((await operate(t.app, 'GET', '/audit')).body as { entries: { action: string; target: string }[] }).entries;
  assert.equal(rows.map((e) => [e.action, e.target]).reverse(), [
    ['release.published', '2.6.0 at 10%'],
    ['release.pulled', '2.6.0'],
    ['release.restored', '2.6.0'],
  ]);
  assert.equal((await t.storage.outbox.listDeliveries({ limit: 10 })).map((d) => d.type).reverse(), [
    'release.published',
    'release.pulled',
    'release.restored',
  ]);
});

test('restoring a release never pulled changes nothing and writes nothing', async () => {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  await operate(t.app, 'POST', '/releases', { version: '2.6.0', msiUrl: MSI, rolloutPercent: 10 });
  const restored = await operate(t.app, 'POST', '/releases/2.6.0/restore');
  assert.equal([restored.status, (restored.body as { pulledAt: null }).pulledAt], [200, null]);
  const rows = ((await operate(t.app, 'GET', '/audit')).body as { entries: { action: string }[] }).entries;
  assert.equal(rows.map((e) => e.action), ['release.published']);
});

test.run();
