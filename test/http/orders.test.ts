/**
 * The operator's orders, in process (app.handle), with the payment simulator: find by email or session,
 * show one, upgrade (idempotent), revoke and reinstate with a reason, each seen by the public GET
 * checkout/status of the same app and written to the audit trail; bad input and the public port refused.
 * The simulator's Refund, Dispute and Dispute won buttons do what Stripe's events do.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { inProcessOperatorListener, type InProcessServer, startInProcessServer } from '../_in-process.ts';

interface Context {
  server: InProcessServer;
  operator: ReturnType<typeof inProcessOperatorListener>;
}

const test = suite<Context>('operator API: orders', {} as Context);

test.before.each(async (context) => {
  context.server = await startInProcessServer({ operatorToken: OPERATOR_TOKEN });
  context.operator = inProcessOperatorListener(context.server.app);
});
test.after.each(async ({ server, operator }) => {
  await operator.close();
  await server.close();
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A checkout paid on the simulator's page with `form` as its buyer fields. */
async function buy({ server }: Context, product: string, form = 'email=Grace%40Example.com&name=Grace+Hopper&country=us'): Promise<string> {
  const created = await server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ product }),
  });
  const { sessionId } = created.json() as { sessionId: string };
  const paid = await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: FORM, body: form });
  assert.is(paid.status, 303);
  return sessionId;
}
const status = async ({ server }: Context, id: string) =>
  (await server.request({ path: `/api/v1/checkout/status?session_id=${id}` })).json() as Record<string, string | null>;

test("find by email (any case) or session, newest first; show one with its keys; the buyer is the Pay form's", async (context) => {
  const { operator, server } = context;
  const first = await buy(context, 'standard');
  server.clock.advance(1000);
  const second = await buy(context, 'plus_bundle');
  await buy(context, 'standard', 'email=someone%40example.com');
  const keys = await status(context, second);
  const found = await operator.call('/orders?email=grace%40example.com');
  assert.is(found.status, 200);
  const orders = (found.json() as { orders: { session: string }[] }).orders;
  assert.equal(orders.map((o) => o.session), [second, first]);
  const shown = await operator.call(`/orders/${second}`);
  assert.equal(shown.json(), {
    session: second,
    product: 'plus_bundle',
    channel: null,
    state: 'paid',
    createdAt: new Date(server.clock.now()).toISOString(),
    paidAt: new Date(server.clock.now()).toISOString(),
    buyer: { email: 'Grace@Example.com', name: 'Grace Hopper', country: 'US' },
    paymentRef: `pi_sim_${second.slice('cs_sim_'.length)}`,
    amount: null,
    currency: null,
    licenses: 'valid',
    revokedBecause: null,
    keys: [
      { product: 'standard', key: keys['standardLicenseKey'], state: 'valid' },
      { product: 'plus', key: keys['plusLicenseKey'], state: 'valid' },
    ],
    refunded: false,
    disputed: false,
    disputeWon: false,
    override: null,
  });
  assert.equal(((await operator.call(`/orders?session=${first}`)).json() as { orders: { session: string }[] }).orders.map((o) => o.session), [first]);
  const pasted = async (query: string) => ((await operator.call(`/orders?${query}`)).json() as { orders: { session: string }[] }).orders.map((o) => o.session);
  assert.equal(await pasted('email=%20Grace%40example.com%20%0A'), [second, first], 'an email pasted with spaces around it');
  assert.equal(await pasted(`session=%09${first}%20`), [first], 'a session pasted with spaces around it');
  assert.is((await operator.call('/orders?email=%20%20%20')).status, 400, 'an email of spaces only is no email');
  assert.is(((await operator.call('/orders?limit=1')).json() as { orders: unknown[] }).orders.length, 1);
});

test('upgrade issues the Plus key of a standard order once; the public status shows it; the audit trail says so', async (context) => {
  const { operator } = context;
  const id = await buy(context, 'standard');
  const before = await status(context, id);
  const upgraded = await operator.call(`/orders/${id}/upgrade`, { method: 'POST' });
  assert.is(upgraded.status, 200, upgraded.text);
  const keys = (upgraded.json() as { keys: { product: string; key: string }[] }).keys;
  assert.equal(keys.map((k) => k.product), ['standard', 'plus']);
  const after = await status(context, id);
  assert.equal(after, { status: 'paid', licenseKey: before['licenseKey'], standardLicenseKey: before['standardLicenseKey'], plusLicenseKey: keys[1]!.key });
  const again = await operator.call(`/orders/${id}/upgrade`, { method: 'POST' });
  assert.equal(again.json(), upgraded.json(), 'a second upgrade changes nothing');
  const audit = (await operator.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => [e.action, e.target]), [['order.upgraded', id]]);
});

test('revoke with a reason hides the keys from the public status; reinstate shows the same keys again; each once in the audit trail', async (context) => {
  const { operator } = context;
  const id = await buy(context, 'plus_addon');
  const keys = await status(context, id);
  const revoked = await operator.call(`/orders/${id}/revoke`, { method: 'POST', json: { reason: 'chargeback by phone' } });
  assert.is(revoked.status, 200, revoked.text);
  const body = revoked.json() as { licenses: string; revokedBecause: string; override: unknown };
  assert.equal([body.licenses, body.revokedBecause], ['revoked', 'operator']);
  assert.equal(body.override, { action: 'revoked', reason: 'chargeback by phone', at: new Date(context.server.clock.now()).toISOString() });
  assert.equal(await status(context, id), { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
  assert.is((await operator.call(`/orders/${id}/revoke`, { method: 'POST' })).status, 200, 'revoking twice is no error');
  const upgrade = await operator.call(`/orders/${id}/upgrade`, { method: 'POST' });
  assert.equal([upgrade.status, (upgrade.json() as { code: string }).code], [409, 'order_revoked']);
  const reinstated = await operator.call(`/orders/${id}/reinstate`, { method: 'POST' });
  assert.is((reinstated.json() as { licenses: string }).licenses, 'valid');
  assert.equal(await status(context, id), keys);
  const audit = (await operator.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => [e.action, e.target]), [
    ['order.reinstated', id],
    ['order.revoked', `${id}: chargeback by phone`],
  ]);
});

test('bad input names the field; unknown and unpaid sessions are 404 and 409; the public port does not route /orders', async (context) => {
  const { operator, server } = context;
  const bad = await operator.call('/orders?limit=0');
  assert.equal([bad.status, bad.json()], [
    400,
    {
      code: 'invalid_request',
      message: 'Field "limit" must be 1 to 500.',
      resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
    },
  ]);
  assert.is((await operator.call('/orders?email=a%40b.c&email=d%40e.f')).status, 400);
  assert.is((await operator.call('/orders?colour=red')).status, 400);
  const missing = await operator.call('/orders/cs_sim_nope');
  assert.equal([missing.status, (missing.json() as { code: string }).code], [404, 'order_not_found']);
  const created = await server.request({ method: 'POST', path: '/api/v1/checkout/create' });
  const pending = (created.json() as { sessionId: string }).sessionId;
  const unpaid = await operator.call(`/orders/${pending}/revoke`, { method: 'POST' });
  assert.equal([unpaid.status, (unpaid.json() as { message: string }).message], [409, `Checkout session ${pending} is pending, not paid.`]);
  assert.is((await operator.call(`/orders/${pending}`)).status, 200, 'a pending session is shown');
  const blank = await operator.call(`/orders/${pending}/revoke`, { method: 'POST', json: { reason: '  ' } });
  assert.is((blank.json() as { message: string }).message, 'Field "reason" must not be blank.');
  for (const path of ['/orders', `/orders/${pending}`]) {
    const answer = await server.request({ path, headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
    assert.is(answer.status, 404, path);
  }
  const document = (await operator.call('/openapi.json')).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  assert.ok(document.paths['/orders/{session}/revoke']?.['post']?.responses['409']);
  assert.ok(document.paths['/orders/reconcile']?.['post']?.responses['501']);
});

test("the simulator's Refund, Dispute and Dispute won buttons revoke and reinstate, shown on its page and by the status", async (context) => {
  const { server, operator } = context;
  const id = await buy(context, 'standard', '');
  const keys = await status(context, id);
  const page = (await server.request({ path: `/checkout/simulator/${id}` })).text;
  for (const action of ['refund', 'dispute', 'dispute-won']) assert.match(page, `action="/checkout/simulator/${id}/${action}"`);
  assert.match(page, '<p id="standing">Licenses valid.</p>');
  assert.match(page, '<p id="state">Paid. The site or the app now reads the license key from GET /api/v1/checkout/status.</p>');
  const press = async (action: string) => {
    const answer = await server.request({ method: 'POST', path: `/checkout/simulator/${id}/${action}`, headers: FORM, body: '' });
    assert.equal([answer.status, answer.headers['location']], [303, `/checkout/simulator/${id}`]);
  };
  await press('dispute-won');
  assert.equal(await status(context, id), keys, 'a dispute won before it was opened revokes nothing');
  await press('dispute');
  assert.equal(await status(context, id), keys, 'and the dispute arriving later still ends won');
  await press('refund');
  assert.equal(await status(context, id), { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
  const refunded = (await server.request({ path: `/checkout/simulator/${id}` })).text;
  assert.match(refunded, '<p id="standing">Payment refunded, dispute won. Licenses revoked (refund).</p>');
  assert.match(refunded, '<p id="state">Paid, then refunded or disputed: GET /api/v1/checkout/status hands out no license key.</p>');
  const order = (await operator.call(`/orders/${id}`)).json() as { buyer: unknown; refunded: boolean; disputeWon: boolean };
  assert.equal([order.buyer, order.refunded, order.disputeWon], [{ email: 'buyer@example.com', name: 'Sam Buyer', country: 'US' }, true, true]);
  const reconciled = await operator.call('/orders/reconcile', { method: 'POST' });
  assert.equal((reconciled.json() as { alreadyFulfilled: number; fulfilled: string[] }).alreadyFulfilled, 1);
});

test.run();
