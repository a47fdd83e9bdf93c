/**
 * What the provider says of a purchase is kept only within what the storage and the stats can hold: an
 * amount that is not a plain decimal, or a currency that is not three letters, keeps neither.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cleanPurchase } from '../../core/licensing/fulfilment.ts';

const purchase = (amount: string | null, currency: string | null) => ({ email: null, name: null, country: null, paymentRef: null, amount, currency });
const kept = (amount: string | null, currency: string | null) => {
  const { amount: a, currency: c } = cleanPurchase(purchase(amount, currency));
  return [a, c];
};

test('amounts and currencies', () => {
  assert.equal(kept('49.00', 'USD'), ['49.00', 'USD']);
  assert.equal(kept('49.00', 'usd'), ['49.00', 'USD']);
  assert.equal(kept('49', 'EUR'), ['49', 'EUR']);
  assert.equal(kept('0.125', 'KWD'), ['0.125', 'KWD']);
  assert.equal(kept('1e3', 'USD'), [null, null]);
  assert.equal(kept('-5.00', 'USD'), [null, null]);
  assert.equal(kept('1234567890123', 'USD'), [null, null]);
  assert.equal(kept('49.0000', 'USD'), [null, null]);
  assert.equal(kept('49.00', null), [null, null]);
  assert.equal(kept(null, 'USD'), [null, null]);
  assert.equal(kept('49.00', 'US'), [null, null]);
  assert.equal(kept('49.00', 'US$'), [null, null]);
});

test('the buyer: control characters dropped, lengths capped, a country code or nothing', () => {
  const cleaned = cleanPurchase({ email: ' a\u0000b@example.com ', name: 'x'.repeat(250), country: 'de', paymentRef: '', amount: null, currency: null });
  assert.equal(cleaned, { email: 'ab@example.com', name: 'x'.repeat(200), country: 'DE', paymentRef: null, amount: null, currency: null });
  assert.is(cleanPurchase({ ...cleaned, country: 'D1' }).country, null);
});

test.run();
