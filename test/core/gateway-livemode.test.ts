/**
 * Test events cannot reach live orders: on a live Stripe key (`sk_live_`), a correctly signed event that
 * says `livemode: false` (what `payments trigger` sends, signed with the real webhook secret) is
 * acknowledged 200 and changes nothing; on a test key a `livemode: true` event likewise. Each is counted
 * (`site_api_gateway_events_ignored_total`) and logged. An event of the key's own mode is applied.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createStripeGateway } from '../../adapters/stripe/index.ts';
import { computeSignature } from '../../adapters/stripe/signature.ts';
import { signedTestEvent } from '../../adapters/stripe/test-events.ts';
import { createMetricsObserver } from '../../adapters/prometheus/observer.ts';
import { createRegistry } from '../../adapters/prometheus/registry.ts';
import { bodyJson, coreRequest, createTestApp, manualClock, memoryLogger, type TestApp } from '../_setup.ts';

const test = suite('gateway livemode');
const WEBHOOK_SECRET = 'whsec_livemodeTestSecret00000000';
const PAYMENT = { session: 'cs_live_a1B2c3', amount: 4900, currency: 'usd', email: 'buyer@example.com' };

/** An app whose gateway is Stripe on `secretKey` (no call reaches Stripe: only notifications are read). */
async function appOn(secretKey: string): Promise<TestApp & { ignored(): string | undefined }> {
  const clock = manualClock();
  const registry = createRegistry();
  const gateway = createStripeGateway({
    secretKey,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: 'http://127.0.0.1:9',
    prices: { standard: 'price_a', plus_addon: 'price_b', plus_bundle: 'price_c' },
    successUrl: 'https://www.example.com/thanks?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://www.example.com/buy',
    logger: memoryLogger(),
    clock,
  });
  const t = await createTestApp({ gateway, clock, observer: createMetricsObserver(registry) });
  return { ...t, ignored: () => /^site_api_gateway_events_ignored_total (\d+)$/m.exec(registry.render())?.[1] };
}

/** A refund event of PAYMENT in the given mode, signed at the app's time. */
async function refund(t: TestApp, livemode: boolean) {
  const seconds = Math.floor(t.clock.now() / 1000);
  const event = await signedTestEvent('refund', PAYMENT, WEBHOOK_SECRET, seconds);
  const body = livemode ? event.body.replace(/"livemode":false,"pending_webhooks"/, '"livemode":true,"pending_webhooks"') : event.body;
  assert.ok(body.includes(`"livemode":${livemode},"pending_webhooks"`), 'the event says its mode');
  const signature = `t=${seconds},v1=${await computeSignature(WEBHOOK_SECRET, seconds, new TextEncoder().encode(body))}`;
  const headers = { 'content-type': 'application/json', 'stripe-signature': signature };
  const response = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/webhooks/gateway', headers, body }));
  const intent = (JSON.parse(body) as { data: { object: { payment_intent: string } } }).data.object.payment_intent;
  return { response, intent };
}

/** The refund events kept for a payment not known here (what an applied refund before its payment leaves), taken. */
const keptFor = async (t: TestApp, intent: string) => (await t.storage.orders.takePaymentEvents(intent)).map((event) => event.flag);

for (const [key, mode, other] of [['sk_live_51Key', true, false], ['rk_test_51Key', false, true]] as const) {
  test(`on ${key.slice(0, 8)}: a livemode ${other} event is acknowledged, counted and logged, and changes nothing`, async () => {
    const t = await appOn(key);
    const { response, intent } = await refund(t, other);
    assert.is(response.status, 200);
    assert.equal(bodyJson(response), { received: true });
    assert.is(t.ignored(), '1');
    const warned = t.logger.lines.filter((line) => line.message === 'gateway notification ignored');
    assert.equal(warned.map((line) => [line.level, line.fields?.['type'], line.fields?.['reason']]), [['warn', 'charge.refunded', 'livemode_mismatch']]);
    assert.not.ok(t.logger.lines.some((line) => line.message === 'payment event kept until its payment is known here'), 'nothing was kept');
    assert.equal(await keptFor(t, intent), []);
  });

  test(`on ${key.slice(0, 8)}: a livemode ${mode} event is applied`, async () => {
    const t = await appOn(key);
    const { response, intent } = await refund(t, mode);
    assert.is(response.status, 200);
    assert.equal(bodyJson(response), { received: true });
    assert.is(t.ignored(), '0');
    assert.equal(await keptFor(t, intent), ['refunded']);
  });
}

test.run();
