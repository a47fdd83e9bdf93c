/**
 * Exact money sums (core/formats/decimal.ts) and Stripe's smallest-unit amounts as decimals (adapters/stripe).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { majorAmount, purchaseOf } from '../../adapters/stripe/session.ts';
import { addDecimals } from '../../core/formats/decimal.ts';

test('decimals add exactly and keep the longest fraction', () => {
  assert.is(addDecimals('49.00', '64.00'), '113.00');
  assert.is(addDecimals('0.1', '0.2'), '0.3');
  assert.is(addDecimals('49.5', '0.05'), '49.55');
  assert.is(addDecimals('5000', '1'), '5001');
  assert.is(addDecimals('0.005', '0.005'), '0.010');
  assert.is(addDecimals('999999999999.99', '0.01'), '1000000000000.00');
});

test("Stripe's amount_total in the smallest unit becomes the major unit; zero-decimal currencies stay whole", () => {
  assert.is(majorAmount(4900, 'usd'), '49.00');
  assert.is(majorAmount(5, 'eur'), '0.05');
  assert.is(majorAmount(0, 'usd'), '0.00');
  assert.is(majorAmount(5000, 'jpy'), '5000');
  const session = {
    id: 'cs_test_1',
    object: 'checkout.session' as const,
    status: 'complete' as const,
    payment_status: 'paid' as const,
    expires_at: 0,
    amount_total: 6400,
    currency: 'usd',
    customer_details: { email: 'ada@example.com', name: 'Ada', address: { country: 'GB' } },
    payment_intent: 'pi_1',
  };
  assert.equal(purchaseOf(session), { email: 'ada@example.com', name: 'Ada', country: 'GB', paymentRef: 'pi_1', amount: '64.00', currency: 'USD' });
  assert.equal([purchaseOf({ ...session, amount_total: null }).amount, purchaseOf({ ...session, currency: null }).currency], [null, null]);
});

test.run();
