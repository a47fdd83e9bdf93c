/**
 * Payments on the Worker with Stripe played by the stand-in: a purchase end to end through
 * `npm run start:workers` on PostgreSQL (checkout, signed webhook, license key signed with
 * LICENSE_SIGNING_KEY), and the live offer refreshed without a timer, its read handed to ctx.waitUntil.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey, publicKeyOf, verifyLicenseKey } from '../../core/licensing/license.ts';
import { EXAMPLE_CONFIG } from '../../server/config.ts';
import { createSiteWorker } from '../../server/worker-app.ts';
import { sendRequest } from '../_client.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { compactClaims } from '../_licenses.ts';
import { manualClock } from '../_setup.ts';
import { startWorkersProgram } from '../_workers-program.ts';
import { CANCEL_URL, SECRET_KEY, SUCCESS_URL, WEBHOOK_SECRET } from '../stripe/_fixtures.ts';
import { startStripeStandIn } from '../stripe/_stand-in.ts';

const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
/** The example config file's Price ids. */
const PRICES = { standard: 'price_ExampleStandard', plus_addon: 'price_ExamplePlusAddon', plus_bundle: 'price_ExamplePlusBundle' };
const stripeSection = { prices: PRICES, livePrices: true, livePricesRefreshMinutes: 5 };
const checkoutReturn = { successUrl: SUCCESS_URL, cancelUrl: CANCEL_URL };
const standInPrices = [
  { id: PRICES.standard, unit_amount: 5900 },
  { id: PRICES.plus_addon, unit_amount: 1900 },
  { id: PRICES.plus_bundle, unit_amount: 6400 },
];

test.after(() => closeTestDatabases());

test('a purchase through start:workers on PostgreSQL: checkout, signed webhook, key signed with LICENSE_SIGNING_KEY', async () => {
  const stripe = await startStripeStandIn({ secretKey: SECRET_KEY, now: () => Date.now(), prices: standInPrices });
  const dir = mkdtempSync(join(tmpdir(), 'edge-stripe-'));
  writeFileSync(join(dir, 'version.txt'), '2.4.1\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...example, exampleContent: false, checkoutReturn, stripe: stripeSection }));
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  const signingKey = await generateSigningKey();
  const program = await startWorkersProgram({
    CONFIG_FILE: join(dir, 'config.json'),
    DATABASE_URL: pg.url,
    DATABASE_SCHEMA: schema,
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    LICENSE_SIGNING_KEY: signingKey,
  });
  try {
    const from = '127.0.0.9';
    const pricing = (await sendRequest(program.url, { path: '/api/v1/pricing', from })).json() as Record<string, unknown>;
    assert.is(pricing['licensePrice'], '59.00', "the first answer of an isolate already carries Stripe's amount");
    assert.is(pricing['licensePriceDisplay'], '$59');

    const created = await sendRequest(program.url, { method: 'POST', path: '/api/v1/checkout/create', from });
    assert.is(created.status, 200, created.text);
    const { sessionId, url } = created.json() as { sessionId: string; url: string };
    assert.is(url, `https://checkout.stripe.com/c/pay/${sessionId}`);
    assert.is(stripe.requests.at(-1)?.form['line_items[0][price]'], PRICES.standard);

    const pending = await sendRequest(program.url, { path: `/api/v1/checkout/status?session_id=${sessionId}`, from });
    assert.equal(pending.json(), { status: 'pending', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });

    stripe.pay(sessionId);
    const event = stripe.event('checkout.session.completed', sessionId);
    const forged = await sendRequest(program.url, {
      method: 'POST',
      path: '/api/webhooks/gateway',
      headers: { 'stripe-signature': stripe.sign(event, 'whsec_notTheSecret', Math.floor(Date.now() / 1000)) },
      body: event,
      from,
    });
    assert.is(forged.status, 400);
    assert.is((forged.json() as { code: string }).code, 'invalid_signature');
    const delivered = await sendRequest(program.url, {
      method: 'POST',
      path: '/api/webhooks/gateway',
      headers: { 'stripe-signature': stripe.sign(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)) },
      body: event,
      from,
    });
    assert.is(delivered.status, 200, delivered.text);

    const before = Date.now(); // the Worker dates keys by the real clock: the day may turn meanwhile
    const paid = (await sendRequest(program.url, { path: `/api/v1/checkout/status?session_id=${sessionId}`, from })).json() as {
      status: string;
      licenseKey: string;
    };
    assert.is(paid.status, 'paid');
    const claims = await verifyLicenseKey(paid.licenseKey, await publicKeyOf(signingKey));
    const days = [before, Date.now()].map((at) => compactClaims('standard', 'standard', sessionId, at));
    assert.equal(claims, days.find((day) => day.issuedOn === (claims as { issuedOn?: string } | null)?.issuedOn) ?? days[1]);
  } finally {
    assert.is(await program.stop(), 0);
    await stripe.close();
    await pg.dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the live offer: a request past the refresh interval is answered at once and hands the read to ctx.waitUntil', async () => {
  const clock = manualClock();
  const stripe = await startStripeStandIn({ secretKey: SECRET_KEY, now: clock.now, prices: standInPrices });
  const worker = createSiteWorker({ ...example, checkoutReturn, stripe: stripeSection }, { clock });
  const env = { PRODUCT_VERSION: '2.4.1', PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: stripe.url };
  const handed: Promise<unknown>[] = [];
  const ctx = { waitUntil: (work: Promise<unknown>) => void handed.push(work) };
  const price = async () => {
    const request = new Request('https://api.sheets.test/api/v1/pricing', { headers: { 'cf-connecting-ip': '203.0.113.40' } });
    return ((await (await worker.fetch(request, env, ctx)).json()) as { licensePrice: string }).licensePrice;
  };
  const reads = () => stripe.requests.filter((r) => r.path.startsWith('/v1/prices/')).length;
  try {
    assert.is(await price(), '59.00');
    assert.is(reads(), 3);
    assert.is(handed.length, 0, 'the first read is awaited by the setup, nothing is left running');

    stripe.updatePrice(PRICES.standard, { unit_amount: 6900 });
    clock.advance(5 * 60_000);
    assert.is(await price(), '59.00', 'answered from memory while the read runs');
    assert.is(handed.length, 1);
    await Promise.all(handed);
    assert.is(reads(), 6);
    assert.is(await price(), '69.00');
    assert.is(handed.length, 1, 'no new read within the interval');
  } finally {
    await stripe.close();
  }
});

test.run();
