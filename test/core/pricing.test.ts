import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

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
  const { product, productDisplayName, currency, licensePrice, licensePriceDisplay, gatewayPaymentLink, trialFileLimit } =
    base.content.offer;
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

test.run();
