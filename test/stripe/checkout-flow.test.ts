/**
 * The whole purchase in process (app.handle), with Stripe played by the stand-in over a real socket:
 * create, pending, paid by notification or by polling alone, keys that verify with the public key only,
 * replays and forgeries that change nothing, and delayed payments. One suite, run once per storage; every
 * answer is validated against the served /openapi.json.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RETRY_RESOLUTION } from '../../adapters/stripe/api-error.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { generateSigningKey, publicKeyOf, verifyLicenseKey } from '../../core/licensing/license.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { closeTestDatabases } from '../_databases.ts';
import { compactClaims } from '../_licenses.ts';
import { withValidation } from '../_openapi.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';
import type { HttpResult } from '../_setup.ts';
import { pgliteTarget, postgresTarget } from '../storage/_targets.ts';
import { type StripeFixture, stripeFixture, WEBHOOK_SECRET } from './_fixtures.ts';

/** A fresh storage for one test, and how to throw it away. */
interface FlowStorage {
  storage: Storage;
  close(): Promise<void>;
}

/**
 * The storages the flow runs on: memory (on the fixture's clock), PGlite, and Postgres (DATABASE_URL, or
 * PGlite over the wire protocol when it is unset), each fresh per test as in the storage contract suite.
 */
const STORAGES: { name: string; open: (f: StripeFixture) => Promise<FlowStorage> }[] = [
  { name: 'memory', open: async (f) => ({ storage: createMemoryStorage({ clock: f.clock }), close: async () => {} }) },
  { name: 'pglite', open: () => pgliteTarget.open() },
  { name: 'postgres', open: () => postgresTarget.open() },
];

interface Context {
  f: StripeFixture;
  server: InProcessServer;
  opened: FlowStorage;
  storage: Storage;
}

const PENDING = { status: 'pending', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null };

for (const { name, open } of STORAGES) {
  const test = suite<Context>(`checkout flow with Stripe on ${name} storage`, {} as Context);

  test.before.each(async (context) => {
    context.f = await stripeFixture();
    context.opened = await open(context.f);
    context.storage = context.opened.storage;
    // Every answer, the notification endpoint's included, is checked against the served /openapi.json.
    const server = await startInProcessServer({ gateway: context.f.gateway, clock: context.f.clock, storage: context.storage });
    context.server = await withValidation(server);
  });
  test.after.each(async ({ f, server, opened }) => {
    await server.close();
    await opened.close();
    await f.close();
  });

  const create = async ({ server }: Context, body: unknown): Promise<string> => {
    const answer = await server.request({
      method: 'POST',
      path: '/api/v1/checkout/create',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.is(answer.status, 200, answer.text);
    return (answer.json() as { sessionId: string }).sessionId;
  };
  const status = ({ server }: Context, id: string, path = '/api/v1/checkout/status') =>
    server.request({ path: `${path}?session_id=${encodeURIComponent(id)}` });
  /** Sends a Stripe event as Stripe would: signed now with the endpoint secret. */
  const deliver = ({ f, server }: Context, body: string, header = f.stripe.sign(body, WEBHOOK_SECRET, Math.floor(f.clock.now() / 1000))) =>
    server.request({
      method: 'POST',
      path: '/api/v1/webhooks/gateway',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
      body,
    });
  const publicKey = async ({ storage }: Context) => publicKeyOf(await storage.secret('license-signing-key', generateSigningKey));
  const providerReads = ({ f }: Context) => f.stripe.requests.filter((r) => r.method === 'GET').length;
  const assertError = (answer: HttpResult, status: number, code: string) => {
    assert.is(answer.status, status, answer.text);
    assert.is((answer.json() as { code: string }).code, code);
  };

  test('paid by notification: keys issued once, verifiable with the public key alone', async (context) => {
    const { f } = context;
    const id = await create(context, { product: 'plus_bundle', channel: 'msi' });
    assert.equal((await status(context, id)).json(), PENDING);
    assert.equal(f.stripe.session(id)['metadata'], { sku: 'plus_bundle', channel: 'msi' });

    f.stripe.pay(id);
    const event = f.stripe.event('checkout.session.completed', id);
    const delivered = await deliver(context, event);
    assert.is(delivered.status, 200);
    assert.equal(delivered.json(), { received: true });
    assert.match(delivered.headers['ratelimit'] ?? '', /^"public-api";r=\d+;t=\d+$/);

    const reads = providerReads(context);
    const paid = await status(context, id);
    assert.is(paid.status, 200);
    const body = paid.json() as { status: string; licenseKey: string; standardLicenseKey: string; plusLicenseKey: string };
    assert.is(body.status, 'paid');
    assert.is(body.licenseKey, body.standardLicenseKey);
    assert.is(providerReads(context), reads, 'a session paid by notification needs no provider call');
    const key = await publicKey(context);
    assert.equal(await verifyLicenseKey(body.standardLicenseKey, key), compactClaims('standard', 'plus_bundle', id, f.clock.now()));
    assert.equal(await verifyLicenseKey(body.plusLicenseKey, key), compactClaims('plus', 'plus_bundle', id, f.clock.now()));

    f.clock.advance(60_000);
    const replay = await deliver(context, event);
    assert.is(replay.status, 200);
    assert.equal((await status(context, id)).json(), body, 'a replayed event issues no second set of keys');
    assert.equal((await status(context, id, '/api/checkout/status')).json(), body);
  });

  test('paid by polling alone, with no notification at all', async (context) => {
    const { f } = context;
    const id = await create(context, { product: 'plus_addon' });
    assert.equal((await status(context, id)).json(), PENDING);
    f.stripe.pay(id);
    assert.equal((await status(context, id)).json(), PENDING, 'the answer is kept 3 s');
    f.clock.advance(3000);
    const paid = (await status(context, id)).json() as { licenseKey: string; plusLicenseKey: string };
    assert.equal(paid, { status: 'paid', licenseKey: paid.plusLicenseKey, standardLicenseKey: null, plusLicenseKey: paid.plusLicenseKey });
    assert.equal(await verifyLicenseKey(paid.licenseKey, await publicKey(context)), compactClaims('plus', 'plus_addon', id, f.clock.now()));
    const reads = providerReads(context);
    f.clock.advance(10_000);
    assert.equal((await status(context, id)).json(), paid);
    assert.is(providerReads(context), reads, 'a paid session is final: no more provider calls');
  });

  test('a notification racing a status poll yields one set of keys', async (context) => {
    const { f } = context;
    const id = await create(context, {});
    f.stripe.pay(id);
    f.clock.advance(3000);
    const [polled, delivered] = await Promise.all([status(context, id), deliver(context, f.stripe.event('checkout.session.completed', id))]);
    assert.is(delivered.status, 200);
    const again = await status(context, id);
    assert.equal(polled.json(), again.json());
    assert.is((again.json() as { status: string }).status, 'paid');
  });

  test('a forged, stale or unsigned notification is refused and changes nothing', async (context) => {
    const { f } = context;
    const id = await create(context, {});
    // An attacker's claim that the (unpaid) session was paid.
    const event = f.stripe
      .event('checkout.session.completed', id)
      .replace('"payment_status":"unpaid"', '"payment_status":"paid"')
      .replace('"status":"open"', '"status":"complete"');
    assert.match(event, '"payment_status":"paid"');
    const now = Math.floor(f.clock.now() / 1000);

    const forged = await deliver(context, event, f.stripe.sign(event, 'whsec_guessed', now));
    assert.is(forged.status, 400);
    assert.equal(forged.json(), {
      code: 'invalid_signature',
      message: 'No v1 signature in the Stripe-Signature header matches the body.',
      resolution: 'Only the payment provider may call this path: sign the raw body with the endpoint secret as the provider documents.',
    });
    const stale = await deliver(context, event, f.stripe.sign(event, WEBHOOK_SECRET, now - 301));
    assertError(stale, 400, 'invalid_signature');
    assert.match((stale.json() as { message: string }).message, 'more than 300 seconds');
    const tampered = await deliver(context, event.replace('"paid"', '"paid" '), f.stripe.sign(event, WEBHOOK_SECRET, now));
    assertError(tampered, 400, 'invalid_signature');
    const unsigned = await context.server.request({ method: 'POST', path: '/api/webhooks/gateway', body: event });
    assertError(unsigned, 400, 'invalid_signature');
    assert.is((unsigned.json() as { message: string }).message, 'The Stripe-Signature header is missing.');

    assert.equal((await status(context, id)).json(), PENDING, 'Stripe says open, and no refused claim counted');
    assert.equal(await context.storage.checkouts.getLicenses(id), null);
  });

  test('a delayed payment is processing, then paid on async_payment_succeeded', async (context) => {
    const { f } = context;
    const id = await create(context, { product: 'standard', channel: 'store' });
    f.stripe.payDelayed(id);
    assert.is((await deliver(context, f.stripe.event('checkout.session.completed', id))).status, 200);
    assert.equal((await status(context, id)).json(), { ...PENDING, status: 'processing' });
    f.stripe.settleDelayed(id, true);
    assert.is((await deliver(context, f.stripe.event('checkout.session.async_payment_succeeded', id))).status, 200);
    const paid = (await status(context, id)).json() as { standardLicenseKey: string };
    assert.equal(paid, { status: 'paid', licenseKey: paid.standardLicenseKey, standardLicenseKey: paid.standardLicenseKey, plusLicenseKey: null });
  });

  test('a delayed payment that fails is payment_failed, by notification and by polling alone', async (context) => {
    const { f } = context;
    const notified = await create(context, {});
    const polled = await create(context, {});
    for (const id of [notified, polled]) f.stripe.payDelayed(id);
    f.clock.advance(3000);
    assert.equal((await status(context, polled)).json(), { ...PENDING, status: 'processing' });
    for (const id of [notified, polled]) f.stripe.settleDelayed(id, false);
    assert.is((await deliver(context, f.stripe.event('checkout.session.async_payment_failed', notified))).status, 200);
    f.clock.advance(3000);
    for (const id of [notified, polled]) {
      const failed = await status(context, id);
      assert.equal(failed.json(), {
        code: 'payment_failed',
        message: 'The payment for this checkout session failed.',
        resolution: 'The payment did not go through; create a new checkout session and pay with another method.',
      });
      assert.is(failed.status, 400);
      assert.equal(await context.storage.checkouts.getLicenses(id), null);
    }
  });

  test('an expired session is session_expired; late events for it change nothing', async (context) => {
    const { f } = context;
    const id = await create(context, {});
    f.stripe.expire(id);
    assert.is((await deliver(context, f.stripe.event('checkout.session.expired', id))).status, 200);
    assertError(await status(context, id), 400, 'session_expired');
    assert.is((await deliver(context, f.stripe.event('checkout.session.async_payment_succeeded', id))).status, 200);
    assertError(await status(context, id), 400, 'session_expired');
  });

  test('a payment made just before the expiry counts when first polled after it; an unpaid one expires', async (context) => {
    const { f } = context;
    const paid = await create(context, {});
    const unpaid = await create(context, {});
    f.stripe.pay(paid);
    f.clock.advance(24 * 3600 * 1000 + 1000);
    assert.is(((await status(context, paid)).json() as { status: string }).status, 'paid');
    assertError(await status(context, unpaid), 400, 'session_expired');
  });

  test('events of other types or for sessions made elsewhere are acknowledged and ignored', async (context) => {
    const { f } = context;
    const id = await create(context, {});
    const other = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.created', data: { object: { id: 'pi_1' } } });
    assert.equal((await deliver(context, other)).json(), { received: true });
    const elsewhere = f.stripe.event('checkout.session.completed', id).replaceAll(id, 'cs_test_made_by_a_payment_link');
    assert.equal((await deliver(context, elsewhere)).json(), { received: true });
    assert.equal((await status(context, id)).json(), PENDING);
  });

  test('a provider outage on create is a 500 that says to retry, and stores nothing', async (context) => {
    context.f.stripe.failNext({ kind: 'status', status: 503 });
    const answer = await context.server.request({ method: 'POST', path: '/api/v1/checkout/create' });
    assert.is(answer.status, 500);
    assert.equal(answer.json(), {
      code: 'internal_error',
      message: 'The payment provider did not answer in time.',
      resolution: RETRY_RESOLUTION,
    });
    assert.is(await context.storage.checkouts.getCheckout(String(context.f.stripe.requests[0]?.form['client_reference_id'])), null);
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
