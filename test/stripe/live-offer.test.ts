/**
 * The live offer in process (app.handle), with Stripe's Prices played by the stand-in over a real socket:
 * Stripe's amounts after a refresh, the last good offer at once while Stripe is down or slow, Stripe's new
 * amounts when it is back, and the same serialized bytes while nothing changes. Every HTTP answer is
 * validated against the served /openapi.json.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLiveOffer, type LiveOffer } from '../../adapters/stripe/index.ts';
import type { Pricing } from '../../core/schemas/responses.ts';
import { withValidation } from '../_openapi.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { coreRequest, exampleContent } from '../_setup.ts';
import { PRICES, SECRET_KEY, type StripeFixture, stripeFixture } from './_fixtures.ts';

const REFRESH_MS = 10 * 60_000;
const CONFIGURED = exampleContent().offer;
/** The stand-in's amounts at the start: the configured ones (4900, 1900, 6400). */
const SAME_AS_CONFIG = CONFIGURED;

interface Context {
  f: StripeFixture;
  live: LiveOffer;
  server: InProcessServer;
}

const test = suite<Context>('live offer from Stripe prices', {} as Context);

test.before.each(async (context) => {
  context.f = await stripeFixture();
  const { f } = context;
  context.live = createLiveOffer({
    secretKey: SECRET_KEY,
    apiBase: f.stripe.url,
    prices: PRICES,
    offer: CONFIGURED,
    logger: f.logger,
    clock: f.clock,
    refreshMs: REFRESH_MS,
    // Long enough that a GET pricing waiting for Stripe could not go unnoticed.
    timeoutMs: 60_000,
  });
  context.server = await withValidation(await startInProcessServer({ offer: context.live, clock: f.clock, logger: f.logger }));
});
test.after.each(async ({ f, server }) => {
  await server.close();
  await f.close();
});

const pricing = async ({ server }: Context, path = '/api/v1/pricing'): Promise<unknown> => {
  const answer = await server.request({ path });
  assert.is(answer.status, 200, answer.text);
  return answer.json();
};
const priceReads = ({ f }: Context) => f.stripe.requests.filter((r) => r.path.startsWith('/v1/prices/')).length;
const logged = ({ f }: Context) => f.logger.lines.map((l) => `${l.level} ${l.message}`);

test('Stripe amounts are served after a refresh, with display strings derived from a changed amount', async (context) => {
  const { f, live } = context;
  f.stripe.updatePrice(PRICES.standard, { unit_amount: 5900 });
  f.stripe.updatePrice(PRICES.plus_addon, { unit_amount: 2450 });
  f.stripe.updatePrice(PRICES.plus_bundle, { unit_amount: 129900 });
  await live.refresh();

  const expected: Pricing = {
    ...CONFIGURED,
    licensePrice: '59.00',
    licensePriceDisplay: '$59',
    plusAddonPrice: '24.50',
    plusAddonPriceDisplay: '$24.50',
    plusBundlePrice: '1299.00',
    plusBundlePriceDisplay: '$1,299',
  };
  assert.equal(await pricing(context), expected);
  assert.equal(await pricing(context, '/api/pricing'), expected);
  assert.equal(
    f.stripe.requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`),
    Object.values(PRICES).map((id) => `GET /v1/prices/${id} Bearer ${SECRET_KEY}`),
  );
  assert.equal(f.logger.lines, [
    { level: 'info', message: 'stripe: the live offer changed', fields: { standard: '59.00', plus_addon: '24.50', plus_bundle: '1299.00' } },
  ]);
});

test('an amount equal to the configured one keeps the configured display string', async (context) => {
  const { f, live } = context;
  f.stripe.updatePrice(PRICES.standard, { unit_amount: 4900 });
  f.stripe.updatePrice(PRICES.plus_addon, { unit_amount: 1950 });
  await live.refresh();
  assert.equal(await pricing(context), { ...CONFIGURED, plusAddonPrice: '19.50', plusAddonPriceDisplay: '$19.50' });
});

test('the offer is read again once the refresh interval has passed, in the background of a request', async (context) => {
  const { f, live } = context;
  await live.refresh();
  assert.is(priceReads(context), 3);
  f.stripe.updatePrice(PRICES.standard, { unit_amount: 3900 });

  f.clock.advance(REFRESH_MS - 1);
  assert.equal(await pricing(context), SAME_AS_CONFIG);
  assert.is(priceReads(context), 3, 'no read before the interval has passed');

  f.clock.advance(1);
  // This request starts the read and is answered from memory, with the offer it had.
  assert.equal(await pricing(context), SAME_AS_CONFIG);
  await live.refresh();
  assert.is(priceReads(context), 6);
  assert.equal(await pricing(context), { ...CONFIGURED, licensePrice: '39.00', licensePriceDisplay: '$39' });
});

test('while Stripe holds the price requests open, GET pricing answers at once with the last good offer', async (context) => {
  const { f, live } = context;
  f.stripe.updatePrice(PRICES.standard, { unit_amount: 5900 });
  await live.refresh();
  const lastGood = { ...CONFIGURED, licensePrice: '59.00', licensePriceDisplay: '$59' };

  for (let i = 0; i < 3; i++) f.stripe.failNext({ kind: 'stall' });
  f.clock.advance(REFRESH_MS);
  let settled = false;
  const refreshing = live.refresh().then(() => (settled = true));
  await f.stripe.whenStalled(3);

  assert.equal(await pricing(context), lastGood);
  assert.equal(await pricing(context, '/api/pricing'), lastGood);
  assert.is(settled, false, 'the answers came while Stripe was still holding every price request');
  assert.is(priceReads(context), 6, 'the requests while a read is under way start no other read');

  f.stripe.dropStalled();
  await refreshing;
  assert.equal(await pricing(context), lastGood);
  assert.equal(logged(context), [
    'info stripe: the live offer changed',
    'warn stripe: cannot read the live prices; serving the last good offer until Stripe answers',
  ]);
  assert.is(f.logger.lines[1]?.fields?.['failure'], 'unreachable');
});

test('Stripe down from the start: the configured offer is served, the outage logged once, and Stripe back brings its amounts', async (context) => {
  const { f, live } = context;
  for (let i = 0; i < 6; i++) f.stripe.failNext({ kind: 'status', status: 500 });
  await live.refresh();
  assert.equal(await pricing(context), CONFIGURED);

  f.clock.advance(60_000);
  await pricing(context); // due again after a minute: this request starts the next read, which fails too
  await live.refresh();
  assert.is(priceReads(context), 6);
  assert.equal(await pricing(context), CONFIGURED);
  assert.equal(logged(context), ['warn stripe: cannot read the live prices; serving the last good offer until Stripe answers']);

  f.stripe.updatePrice(PRICES.plus_bundle, { unit_amount: 6900 });
  f.clock.advance(60_000);
  await live.refresh();
  assert.equal(await pricing(context), { ...CONFIGURED, plusBundlePrice: '69.00', plusBundlePriceDisplay: '$69' });
  assert.equal(logged(context).slice(1), ['info stripe: the live prices can be read again', 'info stripe: the live offer changed']);
});

test('unchanged prices are not serialized again; a changed price is, once', async (context) => {
  const { f, live, server } = context;
  const body = async () => (await server.app.handle(coreRequest({ path: '/api/v1/pricing' }))).body;
  f.stripe.updatePrice(PRICES.standard, { unit_amount: 5900 });
  await live.refresh();
  const first = await body();

  f.clock.advance(REFRESH_MS);
  await live.refresh();
  assert.is(priceReads(context), 6);
  assert.is(await body(), first, 'the same bytes object after a refresh that changed nothing');

  f.stripe.updatePrice(PRICES.standard, { unit_amount: 6900 });
  f.clock.advance(REFRESH_MS);
  await live.refresh();
  const changed = await body();
  assert.is.not(changed, first);
  assert.is(await body(), changed);
  assert.equal(logged(context), ['info stripe: the live offer changed', 'info stripe: the live offer changed']);
});

test('a price in another currency keeps the configured amount of its SKU, logged once', async (context) => {
  const { f, live } = context;
  f.stripe.updatePrice(PRICES.plus_addon, { currency: 'eur', unit_amount: 1700 });
  f.stripe.updatePrice(PRICES.standard, { unit_amount: 5900 });
  await live.refresh();
  f.clock.advance(REFRESH_MS);
  await live.refresh();

  assert.equal(await pricing(context), { ...CONFIGURED, licensePrice: '59.00', licensePriceDisplay: '$59' });
  assert.equal(f.logger.lines[0], {
    level: 'warn',
    message: `stripe: stripe.prices.plus_addon (${PRICES.plus_addon}) cannot set the offer; serving the configured amount`,
    fields: { problem: 'the price is in EUR; the offer is in USD only' },
  });
  assert.is(f.logger.lines.length, 2, 'one warning and one change, however many refreshes');
});

test.run();
