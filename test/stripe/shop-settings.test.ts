/**
 * Stripe for a real shop, against the stand-in: every call asks for the pinned Stripe-Version (the stand-in
 * refuses any other, as Stripe refuses an unknown one), each Checkout switch of the config file's "stripe"
 * section adds exactly its documented session parameters, and a session Stripe made from an expired one
 * (abandoned-checkout recovery) is adopted when it is paid, so its buyer gets keys.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STRIPE_API_VERSION } from '../../adapters/stripe/index.ts';
import type { StripeCheckoutOptions } from '../../adapters/stripe/checkout-options.ts';
import type { CheckoutSession } from '../../core/ports/ports.ts';
import { OPERATOR_TOKEN, startOperatorListener } from '../_operator.ts';
import { startTestServer } from '../_setup.ts';
import { STAND_IN_API_VERSION } from './_stripe-objects.ts';
import { type StripeFixture, stripeFixture, WEBHOOK_SECRET } from './_fixtures.ts';

const test = suite('Stripe for a real shop');

const stored = (id: string): CheckoutSession => ({
  id,
  sku: 'standard',
  channel: null,
  url: 'https://checkout.stripe.com/x',
  state: 'pending',
  createdAt: 0,
  expiresAt: 0,
});

/** The session parameters a switch adds: the form of a created session minus the ones every session has. */
async function featureParams(checkout: StripeCheckoutOptions): Promise<Record<string, string>> {
  const f = await stripeFixture({ checkout });
  try {
    await f.gateway.createCheckout({ sku: 'standard', channel: null });
    const form = { ...f.stripe.requests[0]!.form };
    for (const key of ['mode', 'line_items[0][price]', 'line_items[0][quantity]', 'success_url', 'cancel_url', 'client_reference_id', 'metadata[sku]']) {
      delete form[key];
    }
    return form;
  } finally {
    await f.close();
  }
}

test('every call asks for the pinned Stripe-Version, the one the stand-in is written in', async () => {
  assert.is(STRIPE_API_VERSION, STAND_IN_API_VERSION);
  const f = await stripeFixture();
  try {
    const { sessionId } = await f.gateway.createCheckout({ sku: 'plus_bundle', channel: 'msi' });
    f.stripe.pay(sessionId);
    assert.is((await f.gateway.checkStatus(stored(sessionId))).status, 'paid');
    assert.is((await f.gateway.listPaid!(0, 10)).sessions.length, 1);
    assert.equal((await f.gateway.checkSetup({})).problems, []);
    const seen = f.stripe.requests.map((r) => `${r.method} ${r.path} ${String(r.headers['stripe-version'])}`);
    assert.equal(seen, [
      `POST /v1/checkout/sessions ${STRIPE_API_VERSION}`,
      `GET /v1/checkout/sessions/${sessionId} ${STRIPE_API_VERSION}`,
      `GET /v1/checkout/sessions ${STRIPE_API_VERSION}`,
      `GET /v1/prices/price_standard ${STRIPE_API_VERSION}`,
      `GET /v1/prices/price_plus_addon ${STRIPE_API_VERSION}`,
      `GET /v1/prices/price_plus_bundle ${STRIPE_API_VERSION}`,
    ]);
  } finally {
    await f.close();
  }
});

test('the stand-in refuses a call without the version, as Stripe refuses an unknown one', async () => {
  const f = await stripeFixture();
  try {
    const answer = await fetch(`${f.stripe.url}/v1/prices/price_standard`, {
      headers: { authorization: 'Bearer sk_test_51StandInKey0000000000', 'stripe-version': '2099-01-01' },
    });
    assert.equal([answer.status, await answer.json()], [400, { error: { type: 'invalid_request_error', message: 'Invalid Stripe API version: 2099-01-01' } }]);
  } finally {
    await f.close();
  }
});

test('each Checkout switch sends exactly its session parameters; none by default', async () => {
  assert.equal(await featureParams({}), {});
  assert.equal(await featureParams({ automaticTax: true }), { 'automatic_tax[enabled]': 'true' });
  assert.equal(await featureParams({ taxIdCollection: true }), { 'tax_id_collection[enabled]': 'true' });
  assert.equal(await featureParams({ promotionCodes: true }), { allow_promotion_codes: 'true' });
  assert.equal(await featureParams({ invoiceCreation: true }), { 'invoice_creation[enabled]': 'true' });
  assert.equal(await featureParams({ abandonedCheckoutRecovery: true }), { 'after_expiration[recovery][enabled]': 'true' });
  assert.equal(await featureParams({ promotionsConsent: true }), { 'consent_collection[promotions]': 'auto' });
  assert.equal(await featureParams({ abandonedCheckoutRecovery: true, promotionCodes: true }), {
    allow_promotion_codes: 'true',
    'after_expiration[recovery][enabled]': 'true',
    'after_expiration[recovery][allow_promotion_codes]': 'true',
  });
});

test("a recovered session paid after its original expired is adopted: its buyer gets the original product's keys; a stranger's stays unknown", async () => {
  const f: StripeFixture = await stripeFixture({ checkout: { abandonedCheckoutRecovery: true } });
  const server = await startTestServer({ gateway: f.gateway, clock: f.clock, operatorToken: OPERATOR_TOKEN });
  const operator = await startOperatorListener(server.app);
  try {
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      server.request({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body });
    const deliver = async (body: string) => {
      const answer = await post('/api/v1/webhooks/gateway', body, {
        'stripe-signature': f.stripe.sign(body, WEBHOOK_SECRET, Math.floor(f.clock.now() / 1000)),
      });
      assert.is(answer.status, 200);
    };
    const { sessionId } = (await post('/api/v1/checkout/create', '{"product":"plus_bundle","channel":"store"}')).json() as { sessionId: string };
    f.stripe.expire(sessionId);
    await deliver(f.stripe.event('checkout.session.expired', sessionId));
    const recovered = f.stripe.recover(sessionId);
    f.stripe.pay(recovered);
    await deliver(f.stripe.event('checkout.session.completed', recovered));
    const status = (await server.request({ path: `/api/v1/checkout/status?session_id=${recovered}` })).json() as Record<string, unknown>;
    assert.is(status['status'], 'paid');
    assert.type(status['standardLicenseKey'], 'string');
    assert.type(status['plusLicenseKey'], 'string');
    assert.equal(await server.storage.checkouts.getCheckout(recovered).then((s) => [s?.sku, s?.channel, s?.state]), ['plus_bundle', 'store', 'paid']);
    // A session of another integration on the account, not recovered from one of ours, is still left alone.
    const foreign = f.stripe.recover(sessionId);
    f.stripe.session(foreign)['recovered_from'] = 'cs_test_of_someone_else';
    f.stripe.pay(foreign);
    await deliver(f.stripe.event('checkout.session.completed', foreign));
    assert.is(await server.storage.checkouts.getCheckout(foreign), null);
    // A recovered session whose notification was lost is adopted by reconcile; the stranger's is counted unknown.
    const lost = f.stripe.recover(sessionId);
    f.stripe.pay(lost);
    const reconciled = (await operator.call('/orders/reconcile', { method: 'POST' })).json() as {
      fulfilled: string[];
      alreadyFulfilled: number;
      unknown: number;
    };
    assert.equal([reconciled.fulfilled, reconciled.alreadyFulfilled, reconciled.unknown], [[lost], 1, 1]);
  } finally {
    await operator.close();
    await server.close();
    await f.close();
  }
});

test.run();
