import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadConfig } from '../../server/config.ts';
import { EXAMPLE_CHECKOUT_RETURN, ownSiteConfigured } from '../../server/payment-config.ts';
import { configError, exampleConfigFiles } from '../_config-files.ts';

const EXAMPLE_RETURN = { successUrl: 'http://localhost:3000/thanks?session_id={CHECKOUT_SESSION_ID}', cancelUrl: 'http://localhost:3000/pricing' };
const STRIPE = { PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51Abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };

const { configFile, removeAll } = exampleConfigFiles('payment-config');

test('the simulator is the default gateway, except with NODE_ENV=production, which must name one', () => {
  assert.equal(loadConfig({}, process.cwd()).payment, { gateway: 'simulator', returnTo: EXAMPLE_RETURN });
  assert.is(
    configError({ NODE_ENV: 'production' }),
    'NODE_ENV=production needs PAYMENT_GATEWAY set: stripe to take payments, or simulator for a demo that takes no money',
  );
  assert.equal(loadConfig({ NODE_ENV: 'production', PAYMENT_GATEWAY: 'simulator' }, process.cwd()).payment, { gateway: 'simulator', returnTo: EXAMPLE_RETURN });
});

test('PAYMENT_GATEWAY=stripe reads the secrets from the environment and the rest from the file', () => {
  assert.equal(loadConfig({ ...STRIPE, STRIPE_API_BASE: 'http://127.0.0.1:9' }, process.cwd()).payment, {
    gateway: 'stripe',
    secretKey: 'sk_test_51Abc',
    webhookSecret: 'whsec_abc',
    apiBase: 'http://127.0.0.1:9',
    prices: { standard: 'price_ExampleStandard', plus_addon: 'price_ExamplePlusAddon', plus_bundle: 'price_ExamplePlusBundle' },
    successUrl: 'http://localhost:3000/thanks?session_id={CHECKOUT_SESSION_ID}',
    cancelUrl: 'http://localhost:3000/pricing',
    testMode: true,
    livePrices: null,
    checkout: {
      automaticTax: false,
      taxIdCollection: false,
      promotionCodes: false,
      invoiceCreation: false,
      abandonedCheckoutRecovery: false,
      promotionsConsent: false,
    },
  });
  const live = loadConfig({ ...STRIPE, STRIPE_SECRET_KEY: 'rk_live_51Abc', STRIPE_WEBHOOK_SECRET: '' }, process.cwd()).payment;
  assert.equal(live.gateway === 'stripe' && [live.testMode, live.webhookSecret, live.apiBase], [false, null, undefined]);
});

test('the "stripe" section\'s Checkout switches are read; recovery without STRIPE_WEBHOOK_SECRET is refused', () => {
  const switches = {
    automaticTax: true,
    taxIdCollection: true,
    promotionCodes: true,
    invoiceCreation: true,
    abandonedCheckoutRecovery: true,
    promotionsConsent: true,
  };
  const on = configFile((config) => Object.assign(config['stripe'] as object, switches));
  const payment = loadConfig({ ...STRIPE, CONFIG_FILE: on }, process.cwd()).payment;
  assert.equal(payment.gateway === 'stripe' && payment.checkout, switches);
  assert.is(
    configError({ ...STRIPE, STRIPE_WEBHOOK_SECRET: '', CONFIG_FILE: on }),
    `${on}: "stripe.abandonedCheckoutRecovery" needs STRIPE_WEBHOOK_SECRET: a recovered session is a new one, and this server learns of it only by its notification`,
  );
  const typo = configFile((config) => Object.assign(config['stripe'] as object, { automaticTax: 'yes' }));
  assert.match(configError({ ...STRIPE, CONFIG_FILE: typo }), /field "stripe\.automaticTax"/);
});

test('every bad payment setting is a ConfigError naming it', () => {
  assert.is(configError({ PAYMENT_GATEWAY: 'paypal' }), 'PAYMENT_GATEWAY="paypal" is not available; use simulator (the default) or stripe');
  assert.is(
    configError({ PAYMENT_GATEWAY: 'stripe' }),
    'PAYMENT_GATEWAY=stripe needs STRIPE_SECRET_KEY (sk_live_..., sk_test_... or a restricted rk_... key)',
  );
  assert.match(configError({ ...STRIPE, STRIPE_SECRET_KEY: 'pk_test_51Abc' }), /^STRIPE_SECRET_KEY must be a secret key/);
  assert.is(
    configError({ ...STRIPE, STRIPE_WEBHOOK_SECRET: 'sk_test_51Abc' }),
    'STRIPE_WEBHOOK_SECRET must be the endpoint signing secret (whsec_...), not an API key',
  );
  assert.is(configError({ ...STRIPE, STRIPE_API_BASE: 'localhost:12111' }), 'STRIPE_API_BASE must be an http(s) URL such as https://api.stripe.com');
});

test('the file\'s "stripe" section is required with stripe and checked field by field', () => {
  const without = configFile((config) => delete config['stripe']);
  assert.is(configError({ ...STRIPE, CONFIG_FILE: without }), `${without}: PAYMENT_GATEWAY=stripe needs the "stripe" section (prices)`);
  assert.equal(loadConfig({ CONFIG_FILE: without }, process.cwd()).payment, { gateway: 'simulator', returnTo: EXAMPLE_RETURN });
  const badPrice = configFile((config) => {
    (config['stripe'] as { prices: Record<string, string> }).prices['plus_addon'] = 'prod_123';
  });
  assert.is(
    configError({ CONFIG_FILE: badPrice }),
    `${badPrice}: field "stripe.prices.plus_addon" must be a Stripe Price id such as price_1PqR...`,
  );
});

test('"checkoutReturn" is given once, for Stripe and the simulator alike; the success address carries the session id', () => {
  const noReturn = configFile((config) => delete config['checkoutReturn']);
  assert.equal(loadConfig({ CONFIG_FILE: noReturn }, process.cwd()).payment, { gateway: 'simulator', returnTo: null });
  assert.is(
    configError({ ...STRIPE, CONFIG_FILE: noReturn }),
    `${noReturn}: PAYMENT_GATEWAY=stripe needs "checkoutReturn" (successUrl, cancelUrl): where Stripe sends the buyer back`,
  );
  // The older place, the "stripe" section, is still read...
  const older = configFile((config) => {
    delete config['checkoutReturn'];
    Object.assign(config['stripe'] as object, { successUrl: 'https://shop.example/ok?s={CHECKOUT_SESSION_ID}', cancelUrl: 'https://shop.example/' });
  });
  const fromStripe = loadConfig({ ...STRIPE, CONFIG_FILE: older }, process.cwd()).payment;
  assert.equal(fromStripe.gateway === 'stripe' && [fromStripe.successUrl, fromStripe.cancelUrl], [
    'https://shop.example/ok?s={CHECKOUT_SESSION_ID}',
    'https://shop.example/',
  ]);
  // ...but never beside "checkoutReturn".
  const twice = configFile((config) =>
    Object.assign(config['stripe'] as object, { successUrl: 'https://shop.example/ok?s={CHECKOUT_SESSION_ID}', cancelUrl: 'https://shop.example/' })
  );
  assert.is(
    configError({ CONFIG_FILE: twice }),
    `${twice}: give the return addresses once, in "checkoutReturn"; drop "stripe.successUrl" and "stripe.cancelUrl"`,
  );
  const noPlaceholder = configFile((config) => ((config['checkoutReturn'] as Record<string, unknown>)['successUrl'] = 'https://www.example.com/thanks'));
  assert.is(
    configError({ CONFIG_FILE: noPlaceholder }),
    `${noPlaceholder}: field "checkoutReturn.successUrl" must carry {CHECKOUT_SESSION_ID}, which is replaced by the session id`,
  );
  const cancelPlaceholder = configFile((
    config,
  ) => ((config['checkoutReturn'] as Record<string, unknown>)['cancelUrl'] = 'https://www.example.com/?s={CHECKOUT_SESSION_ID}'));
  assert.is(
    configError({ CONFIG_FILE: cancelPlaceholder }),
    `${cancelPlaceholder}: field "checkoutReturn.cancelUrl" cannot carry {CHECKOUT_SESSION_ID}: Stripe fills it in successUrl only`,
  );
  const notWeb = configFile((config) => ((config['checkoutReturn'] as Record<string, unknown>)['cancelUrl'] = 'javascript:alert(1)'));
  assert.is(configError({ CONFIG_FILE: notWeb }), `${notWeb}: field "checkoutReturn.cancelUrl" must be an http(s) URL`);
});

test('stripe.livePrices is off by default; on, it reads the Prices every livePricesRefreshMinutes (5 by default)', () => {
  const on = configFile((config) => ((config['stripe'] as Record<string, unknown>)['livePrices'] = true));
  const payment = loadConfig({ ...STRIPE, CONFIG_FILE: on }, process.cwd()).payment;
  assert.equal(payment.gateway === 'stripe' && payment.livePrices, { refreshMs: 5 * 60_000 });
  const hourly = configFile((config) => Object.assign(config['stripe'] as object, { livePrices: true, livePricesRefreshMinutes: 60 }));
  const hourlyPayment = loadConfig({ ...STRIPE, CONFIG_FILE: hourly }, process.cwd()).payment;
  assert.equal(hourlyPayment.gateway === 'stripe' && hourlyPayment.livePrices, { refreshMs: 60 * 60_000 });
  const tooOften = configFile((config) => Object.assign(config['stripe'] as object, { livePrices: true, livePricesRefreshMinutes: 0 }));
  assert.is(configError({ CONFIG_FILE: tooOften }), `${tooOften}: field "stripe.livePricesRefreshMinutes" Invalid value: Expected >=1 but received 0`);
  const notBoolean = configFile((config) => ((config['stripe'] as Record<string, unknown>)['livePrices'] = 'yes'));
  assert.match(configError({ CONFIG_FILE: notBoolean }), `${notBoolean}: field "stripe.livePrices" `);
});

test('a site of the vendor\'s own: "checkoutReturn" set, and not the example\'s untouched; else the simulator ends on its own thanks page', () => {
  const own = (env: NodeJS.ProcessEnv) => {
    const config = loadConfig(env, process.cwd());
    return ownSiteConfigured(config.payment.gateway === 'simulator' ? config.payment.returnTo : null, config.isExample);
  };
  assert.equal(EXAMPLE_CHECKOUT_RETURN, EXAMPLE_RETURN, "the constant is the example file's");
  assert.is(own({}), false, 'the example as shipped');
  assert.is(own({ CONFIG_FILE: configFile((config) => (config['exampleContent'] = false)) }), true, "a copy made the vendor's own");
  const edited = configFile((
    config,
  ) => (config['checkoutReturn'] = { successUrl: 'http://localhost:5173/thanks?s={CHECKOUT_SESSION_ID}', cancelUrl: 'http://localhost:5173/' }));
  assert.is(own({ CONFIG_FILE: edited }), true, 'the example with its own addresses');
  assert.is(own({ CONFIG_FILE: configFile((config) => delete config['checkoutReturn']) }), false, 'no return addresses');
});

test.after(removeAll);

test.run();
