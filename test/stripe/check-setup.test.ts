import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PRICES, stripeFixture } from './_fixtures.ts';

const OFFER = { standard: '49.00', plus_addon: '19.00', plus_bundle: '64.00' };

test('a working key and matching one-time prices pass with nothing to report', async () => {
  const f = await stripeFixture();
  try {
    assert.equal(await f.gateway.checkSetup(OFFER), { problems: [], warnings: [] });
    assert.equal(
      f.stripe.requests.map((r) => `${r.method} ${r.path}`),
      ['GET /v1/prices/price_standard', 'GET /v1/prices/price_plus_addon', 'GET /v1/prices/price_plus_bundle'],
    );
  } finally {
    await f.close();
  }
});

test('a refused secret key is one problem naming STRIPE_SECRET_KEY, and the check stops there', async () => {
  const f = await stripeFixture({ secretKey: 'sk_live_revoked0000' });
  try {
    assert.equal(await f.gateway.checkSetup(OFFER), {
      problems: ['STRIPE_SECRET_KEY is refused by Stripe (401: Invalid API Key provided: sk_live_****0000)'],
      warnings: [],
    });
    assert.is(f.stripe.requests.length, 1);
  } finally {
    await f.close();
  }
});

test('an unknown price is a problem naming its setting; an amount unlike the offer is a warning', async () => {
  const f = await stripeFixture({ prices: { ...PRICES, plus_addon: 'price_typo' } });
  try {
    assert.equal(await f.gateway.checkSetup({ ...OFFER, plus_bundle: '69.00' }), {
      problems: ['stripe.prices.plus_addon: Stripe has no price "price_typo" for this key (No such price: \'price_typo\')'],
      warnings: ['stripe.prices.plus_bundle: price price_plus_bundle charges 64.00 but the offer shows 69.00'],
    });
  } finally {
    await f.close();
  }
});

test('an unreachable provider is only a warning: the server still starts', async () => {
  const f = await stripeFixture();
  try {
    f.stripe.failNext({ kind: 'drop' });
    const report = await f.gateway.checkSetup(OFFER);
    assert.equal(report.problems, []);
    assert.is(report.warnings.length, 1);
    assert.match(report.warnings[0]!, /^could not reach Stripe to check the key and prices \(network error: .*\); checkouts fail until it answers$/);
  } finally {
    await f.close();
  }
});

test.run();
