/**
 * An operator change and its audit row commit together, on PGlite and PostgreSQL: when the audit row
 * cannot be written, the change is not made either (500, nothing stored, no event); and of two racing
 * revokes of one order, one is audited and reported, the other finds it revoked; each row names whose
 * token made the change.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { SqlStorage } from '../../adapters/sql/storage.ts';
import { closeTestDatabases } from '../_databases.ts';
import { ADA, LOCAL_RECEIVERS, NAMED_TOKENS } from '../_operator.ts';
import { bodyJson, coreRequest, createTestApp, type TestApp } from '../_setup.ts';
import { type OpenStorage, pgliteTarget, postgresTarget } from '../storage/_targets.ts';

const TOKEN = 'audit-atomic-0123456789'.padEnd(40, 'a');
const AUTH = { authorization: `Bearer ${TOKEN}` };

interface Context {
  open: OpenStorage;
  test: TestApp;
}

const call = (t: TestApp, method: string, path: string, json?: unknown, auth = AUTH) =>
  t.app.operator!.handle(coreRequest({ method, path, headers: auth, ...(json === undefined ? {} : { json }) }));

/** A checkout paid in the simulator; its keys are issued by the status poll. */
async function paidSession(t: TestApp): Promise<string> {
  const created = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: { product: 'standard' } }));
  const { sessionId } = bodyJson(created) as { sessionId: string };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  await t.app.handle(coreRequest({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: form, body: 'email=ada%40example.com' }));
  assert.is((await t.app.handle(coreRequest({ path: '/api/v1/checkout/status', query: `session_id=${sessionId}` }))).status, 200);
  return sessionId;
}

for (const target of [pgliteTarget, postgresTarget]) {
  const test = suite<Context>(`operator changes and their audit rows: ${target.name}`, {} as Context);
  test.before.each(async (context) => {
    context.open = await target.open();
    context.test = await createTestApp({
      operatorToken: TOKEN,
      operatorTokens: NAMED_TOKENS,
      storage: context.open.storage,
      webhookAddresses: LOCAL_RECEIVERS,
    });
  });
  test.after.each(async (context) => {
    await context.open.close();
  });

  test('a change whose audit row cannot be written is not made', async ({ open, test: t }) => {
    const { client } = open.storage as unknown as SqlStorage;
    await call(t, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/events', events: ['roadmap.changed'] });
    const before = bodyJson(await call(t, 'GET', '/roadmap')) as { features: unknown[] };
    await client.exec(`alter table audit add constraint refuse_created check (action <> 'roadmap.created')`);
    const refused = await call(t, 'POST', '/roadmap', { title: 'XLSB export', description: 'Write .xlsb too.', category: 'formats' });
    assert.is(refused.status, 500, JSON.stringify(bodyJson(refused)));
    assert.equal(bodyJson(await call(t, 'GET', '/roadmap')), before, 'the feature was not stored');
    assert.equal((await open.storage.outbox.listDeliveries({ limit: 10 })).length, 0, 'no roadmap.changed event either');
    await client.exec('alter table audit drop constraint refuse_created');
    assert.is((await call(t, 'POST', '/roadmap', { title: 'XLSB export', description: 'Write .xlsb too.', category: 'formats' })).status, 201);
    assert.is((bodyJson(await call(t, 'GET', '/roadmap')) as { features: unknown[] }).features.length, before.features.length + 1);
    const actions = (bodyJson(await call(t, 'GET', '/audit')) as { entries: { action: string }[] }).entries.map((e) => e.action);
    assert.equal(actions, ['roadmap.created', 'webhook.added']);
    assert.equal((await open.storage.outbox.listDeliveries({ limit: 10 })).map((d) => d.type), ['roadmap.changed']);
  });

  test('of two racing revokes, one is audited and sends license.revoked', async ({ open, test: t }) => {
    await call(t, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/events', events: ['license.revoked'] });
    const session = await paidSession(t);
    const answers = await Promise.all([
      call(t, 'POST', `/orders/${session}/revoke`, { reason: 'chargeback' }),
      call(t, 'POST', `/orders/${session}/revoke`, { reason: 'chargeback' }),
    ]);
    assert.equal(answers.map((a) => a.status), [200, 200]);
    const actions = (bodyJson(await call(t, 'GET', '/audit')) as { entries: { action: string; target: string }[] }).entries;
    assert.equal(actions.map((e) => `${e.action} ${e.target}`), [`order.revoked ${session}: chargeback`, 'webhook.added 1: http://127.0.0.1:9/events']);
    assert.equal((await open.storage.outbox.listDeliveries({ limit: 10 })).map((d) => d.type), ['license.revoked']);
  });

  test('each row names whose token made the change (OPERATOR_TOKEN as operator), and GET /audit filters by it', async ({ test: t }) => {
    assert.is((await call(t, 'POST', '/roadmap', { title: 'XLSB export', category: 'formats' }, { authorization: `Bearer ${ADA}` })).status, 201);
    assert.is((await call(t, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/events' })).status, 201);
    const entries = (bodyJson(await call(t, 'GET', '/audit')) as { entries: { actor: string; action: string }[] }).entries;
    assert.equal(entries.map((e) => [e.actor, e.action]), [['operator', 'webhook.added'], ['ada', 'roadmap.created']]);
    const filtered = await t.app.operator!.handle(coreRequest({ path: '/audit', query: 'actor=ada', headers: AUTH }));
    assert.equal((bodyJson(filtered) as { entries: { action: string }[] }).entries.map((e) => e.action), ['roadmap.created']);
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
