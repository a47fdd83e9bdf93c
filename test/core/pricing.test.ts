import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { OfferSource } from '../../core/ports/ports.ts';
import type { Pricing } from '../../core/schemas/responses.ts';
import { bodyJson, coreRequest, createTestApp, exampleContent } from '../_setup.ts';

/** An offer source the test moves by hand, as a provider-backed one would after a refresh. */
function movableOffer(initial: Pricing): OfferSource & { set(offer: Pricing): void } {
  let offer = initial;
  return { current: () => offer, set: (next) => void (offer = next) };
}

test('GET /api/v1/pricing answers 200 with exactly the configured offer', async () => {
  const { app, content } = await createTestApp();
  const response = await app.handle(coreRequest({ path: '/api/v1/pricing' }));
  assert.is(response.status, 200);
  assert.is(response.headers['content-type'], 'application/json');
  assert.equal(bodyJson(response), content.offer);
});

test('GET /api/pricing is an alias with the same body', async () => {
  const { app } = await createTestApp();
  const v1 = await app.handle(coreRequest({ path: '/api/v1/pricing' }));
  const alias = await app.handle(coreRequest({ path: '/api/pricing' }));
  assert.is(alias.status, 200);
  assert.equal(bodyJson(alias), bodyJson(v1));
});

test('an offer with only the required fields is served without the optional ones', async () => {
  const base = await createTestApp();
  const { product, productDisplayName, currency, licensePrice, licensePriceDisplay, gatewayPaymentLink, trialFileLimit } = base.content.offer;
  const offer = { product, productDisplayName, currency, licensePrice, licensePriceDisplay, gatewayPaymentLink, trialFileLimit };
  const { app } = await createTestApp({ content: { ...base.content, offer } });
  const response = await app.handle(coreRequest({ path: '/api/v1/pricing' }));
  assert.equal(bodyJson(response), {
    product: 'legacy-sheet-converter',
    productDisplayName: 'Legacy Sheet Converter',
    currency: 'USD',
    licensePrice: '49.00',
    licensePriceDisplay: '$49',
    gatewayPaymentLink: 'https://pay.example.com/b/standard',
    trialFileLimit: 5,
  });
});

test('the offer of an offer source is served, and serialized again only when the source gives a new offer', async () => {
  const configured = exampleContent().offer;
  const source = movableOffer(configured);
  const { app } = await createTestApp({ offer: source });
  const first = await app.handle(coreRequest({ path: '/api/v1/pricing' }));
  const again = await app.handle(coreRequest({ path: '/api/pricing' }));
  assert.is(again.body, first.body, 'an unchanged offer is served from the same bytes');

  source.set({ ...configured, licensePrice: '59.00', licensePriceDisplay: '$59' });
  const changed = await app.handle(coreRequest({ path: '/api/v1/pricing' }));
  assert.is.not(changed.body, first.body);
  assert.equal(bodyJson(changed), { ...configured, licensePrice: '59.00', licensePriceDisplay: '$59' });
  const still = await app.handle(coreRequest({ path: '/api/v1/pricing' }));
  assert.is(still.body, changed.body);
});

test('an offer source that breaks the schema is logged once and the last good offer is served', async () => {
  const configured = exampleContent().offer;
  const source = movableOffer({ ...configured, licensePrice: '59.00' });
  const { app, logger } = await createTestApp({ offer: source });
  assert.is((bodyJson(await app.handle(coreRequest({ path: '/api/v1/pricing' }))) as Pricing).licensePrice, '59.00');

  source.set({ ...configured, licensePrice: '59' });
  for (let i = 0; i < 2; i++) {
    const response = await app.handle(coreRequest({ path: '/api/v1/pricing' }));
    assert.is(response.status, 200);
    assert.equal(bodyJson(response), { ...configured, licensePrice: '59.00' });
  }
  assert.equal(logger.lines, [
    { level: 'error', message: 'the offer source gave an offer that breaks the Pricing schema; serving the last good offer' },
  ]);
});

test('currency is the constant "USD": an offer source in another currency is refused and the USD offer served', async () => {
  const configured = exampleContent().offer;
  const source = movableOffer(configured);
  const { app } = await createTestApp({ offer: source });
  // The schema's type says USD; the source here stands for one whose provider answers otherwise.
  source.set({ ...configured, currency: 'EUR' } as unknown as Pricing);
  const response = await app.handle(coreRequest({ path: '/api/v1/pricing' }));
  assert.is(response.status, 200);
  assert.equal(bodyJson(response), configured);
  assert.is(configured.currency, 'USD');
});

test.run();
