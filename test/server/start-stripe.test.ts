/**
 * The standalone server wired for Stripe from its configuration, against the stand-in: the startup
 * check of the key and prices, the signing key, and one purchase end to end through the real wiring.
 */
import { rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey, publicKeyOf, verifyLicenseKey } from '../../core/licensing/license.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { type RunningServer, startServer } from '../../server/start.ts';
import { freshPgliteDir } from '../_databases.ts';
import { compactClaims } from '../_licenses.ts';
import { manualClock, memoryLogger, sendHttp } from '../_setup.ts';
import { startStripeStandIn, type StripeStandIn } from '../stripe/_stand-in.ts';

const SECRET_KEY = 'sk_test_51ServerWiring';
const WEBHOOK_SECRET = 'whsec_serverWiring';

async function standIn(clock: { now(): number }, skip?: string): Promise<StripeStandIn> {
  const prices = [
    { id: 'price_ExampleStandard', unit_amount: 4900 },
    { id: 'price_ExamplePlusAddon', unit_amount: 1900 },
    { id: 'price_ExamplePlusBundle', unit_amount: 6400 },
  ];
  return startStripeStandIn({ secretKey: SECRET_KEY, now: clock.now, prices: prices.filter((p) => p.id !== skip) });
}

function env(apiBase: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    STORAGE: 'memory',
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: apiBase,
    ...extra,
  };
}

async function startError(promise: Promise<RunningServer>): Promise<string> {
  try {
    const running = await promise;
    await running.stop();
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

test('a configured Stripe server sells, accepts signed notifications and signs with LICENSE_SIGNING_KEY', async () => {
  const clock = manualClock();
  const logger = memoryLogger();
  const stripe = await standIn(clock);
  const signingKey = await generateSigningKey();
  const running = await startServer(loadConfig(env(stripe.url, { LICENSE_SIGNING_KEY: signingKey }), process.cwd()), logger, clock);
  try {
    assert.is(running.gateway, 'stripe');
    assert.is(running.licenseKeySource, 'LICENSE_SIGNING_KEY');
    assert.is(running.licensePublicKey, await publicKeyOf(signingKey));
    assert.equal(logger.lines.filter((l) => l.level !== 'info'), []);
    const port = Number(new URL(running.url).port);

    const created = await sendHttp(port, { method: 'POST', path: '/api/v1/checkout/create' });
    const { sessionId, url } = created.json() as { sessionId: string; url: string };
    assert.is(url, `https://checkout.stripe.com/c/pay/${sessionId}`);
    assert.is(stripe.requests.at(-1)?.form['success_url'], 'http://localhost:3000/thanks?session_id={CHECKOUT_SESSION_ID}');
    stripe.pay(sessionId);
    const event = stripe.event('checkout.session.completed', sessionId);
    const signature = stripe.sign(event, WEBHOOK_SECRET, Math.floor(clock.now() / 1000));
    const delivered = await sendHttp(port, { method: 'POST', path: '/api/webhooks/gateway', headers: { 'stripe-signature': signature }, body: event });
    assert.is(delivered.status, 200);
    const status = (await sendHttp(port, { path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { licenseKey: string };
    assert.equal(await verifyLicenseKey(status.licenseKey, running.licensePublicKey), compactClaims('standard', 'standard', sessionId, clock.now()));
  } finally {
    await running.stop();
    await stripe.close();
  }
});

test('without LICENSE_SIGNING_KEY a key is generated on first start and kept with the data (PGlite)', async () => {
  const clock = manualClock();
  const dataDir = await freshPgliteDir();
  const start = () => startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir }, process.cwd()), memoryLogger(), clock);
  try {
    const first = await start();
    await first.stop();
    assert.is(first.gateway, 'simulator');
    assert.is(first.licenseKeySource, 'storage');
    assert.match(first.licensePublicKey, /^[A-Za-z0-9_-]{43}$/);
    const again = await start();
    await again.stop();
    assert.is(again.licensePublicKey, first.licensePublicKey, 'the same key after a restart');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a refused secret key stops the start with a message naming STRIPE_SECRET_KEY', async () => {
  const clock = manualClock();
  const stripe = await standIn(clock);
  try {
    const config = loadConfig(env(stripe.url, { STRIPE_SECRET_KEY: 'sk_test_51Revoked' }), process.cwd());
    assert.is(
      await startError(startServer(config, memoryLogger(), clock)),
      'STRIPE_SECRET_KEY is refused by Stripe (401: Invalid API Key provided: sk_test_****oked)',
    );
  } finally {
    await stripe.close();
  }
});

test('a configured price that Stripe does not have stops the start, naming the setting', async () => {
  const clock = manualClock();
  const stripe = await standIn(clock, 'price_ExamplePlusBundle');
  try {
    assert.is(
      await startError(startServer(loadConfig(env(stripe.url), process.cwd()), memoryLogger(), clock)),
      'stripe.prices.plus_bundle: Stripe has no price "price_ExamplePlusBundle" for this key (No such price: \'price_ExamplePlusBundle\')',
    );
  } finally {
    await stripe.close();
  }
});

test('an unreachable Stripe at startup is a warning: the server starts and checkouts answer 500 retry', async () => {
  const clock = manualClock();
  const stripe = await standIn(clock);
  await stripe.close();
  const logger = memoryLogger();
  const running = await startServer(loadConfig(env(stripe.url, { STRIPE_WEBHOOK_SECRET: '' }), process.cwd()), logger, clock);
  try {
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    assert.is(warnings.length, 2);
    assert.match(warnings[0]!, /^stripe: could not reach Stripe to check the key and prices \(network error: fetch failed \(ECONNREFUSED\)\)/);
    assert.is(warnings[1], 'stripe: STRIPE_WEBHOOK_SECRET is not set: notifications are refused and sessions settle only when polled');
    const created = await sendHttp(Number(new URL(running.url).port), { method: 'POST', path: '/api/v1/checkout/create' });
    assert.is(created.status, 500);
    assert.match((created.json() as { resolution: string }).resolution, /^Retry in a few seconds/);
  } finally {
    await running.stop();
  }
});

test.run();
