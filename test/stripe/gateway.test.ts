import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RETRY_RESOLUTION } from '../../adapters/stripe/api-error.ts';
import { ApiError } from '../../core/http/errors.ts';
import type { CheckoutSession } from '../../core/ports/ports.ts';
import { CANCEL_URL, SECRET_KEY, STRIPE_TIMEOUT_MS, type StripeFixture, stripeFixture, SUCCESS_URL } from './_fixtures.ts';
import { loadScaled } from '../_load.ts';

const test = suite<{ f: StripeFixture }>('stripe gateway against the stand-in', {} as { f: StripeFixture });

test.before.each(async (context) => {
  context.f = await stripeFixture();
});
test.after.each(async (context) => {
  await context.f.close();
});

function stored(id: string): CheckoutSession {
  return { id, sku: 'standard', channel: null, url: 'https://checkout.stripe.com/x', state: 'pending', createdAt: 0, expiresAt: 0 };
}

/** The API error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

test('create posts a form-encoded Checkout Session with the SKU price, return URLs, reference and metadata', async ({ f }) => {
  const created = await f.gateway.createCheckout({ sku: 'plus_bundle', channel: 'msi' });
  assert.is(f.stripe.requests.length, 1);
  const request = f.stripe.requests[0]!;
  assert.is(request.method, 'POST');
  assert.is(request.path, '/v1/checkout/sessions');
  assert.is(request.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.is(request.headers['authorization'], `Bearer ${SECRET_KEY}`);
  const key = request.headers['idempotency-key'];
  assert.match(String(key), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(request.form, {
    mode: 'payment',
    'line_items[0][price]': 'price_plus_bundle',
    'line_items[0][quantity]': '1',
    success_url: SUCCESS_URL,
    cancel_url: CANCEL_URL,
    client_reference_id: String(key),
    'metadata[sku]': 'plus_bundle',
    'metadata[channel]': 'msi',
  });
  const session = f.stripe.session(created.sessionId);
  assert.match(created.sessionId, /^cs_test_/);
  assert.is(created.url, session['url']);
  assert.is(created.expiresAt, (session['expires_at'] as number) * 1000);
  assert.is(created.expiresAt, f.clock.now() + 24 * 3600 * 1000);
});

test('create without a channel sends no channel metadata', async ({ f }) => {
  await f.gateway.createCheckout({ sku: 'standard', channel: null });
  const form = f.stripe.requests[0]!.form;
  assert.is(form['metadata[sku]'], 'standard');
  assert.not.ok('metadata[channel]' in form);
  assert.is(form['line_items[0][price]'], 'price_standard');
});

test('status reads the session with its PaymentIntent and maps every documented state', async ({ f }) => {
  const { sessionId } = await f.gateway.createCheckout({ sku: 'standard', channel: null });
  const failing = (await f.gateway.createCheckout({ sku: 'standard', channel: null })).sessionId;
  const seen: string[] = [];
  const check = async (id: string) => {
    f.clock.advance(3000);
    seen.push((await f.gateway.checkStatus(stored(id))).status);
  };
  await check(sessionId);
  f.stripe.payDelayed(sessionId);
  await check(sessionId);
  f.stripe.settleDelayed(sessionId, true);
  await check(sessionId);
  f.stripe.payDelayed(failing);
  f.stripe.settleDelayed(failing, false);
  await check(failing);
  const expiring = (await f.gateway.createCheckout({ sku: 'standard', channel: null })).sessionId;
  f.stripe.expire(expiring);
  await check(expiring);
  const card = (await f.gateway.createCheckout({ sku: 'standard', channel: null })).sessionId;
  f.stripe.pay(card);
  await check(card);
  assert.equal(seen, ['pending', 'processing', 'paid', 'failed', 'expired', 'paid']);
  const read = f.stripe.requests.find((r) => r.method === 'GET')!;
  assert.is(read.path, `/v1/checkout/sessions/${sessionId}`);
  assert.equal(read.query.getAll('expand[]'), ['payment_intent']);
  assert.is(read.headers['authorization'], `Bearer ${SECRET_KEY}`);
});

test('status answers are reused for 3 s and concurrent polls share one call', async ({ f }) => {
  const { sessionId } = await f.gateway.createCheckout({ sku: 'standard', channel: null });
  const reads = () => f.stripe.requests.filter((r) => r.method === 'GET').length;
  const polls = await Promise.all([1, 2, 3].map(async () => (await f.gateway.checkStatus(stored(sessionId))).status));
  assert.equal(polls, ['pending', 'pending', 'pending']);
  assert.is(reads(), 1);
  f.stripe.pay(sessionId);
  f.clock.advance(2999);
  assert.is((await f.gateway.checkStatus(stored(sessionId))).status, 'pending');
  assert.is(reads(), 1);
  f.clock.advance(1);
  assert.is((await f.gateway.checkStatus(stored(sessionId))).status, 'paid');
  assert.is(reads(), 2);
});

test('a provider 5xx is a 500 that says to retry, logged, not retried', async ({ f }) => {
  f.stripe.failNext({ kind: 'status', status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } } });
  const error = await rejection(f.gateway.createCheckout({ sku: 'standard', channel: null }));
  assert.equal(error.toBody(), {
    code: 'internal_error',
    message: 'The payment provider did not answer in time.',
    resolution: RETRY_RESOLUTION,
  });
  assert.is(error.status, 500);
  assert.is(f.stripe.requests.length, 1);
  const line = f.logger.lines.find((l) => l.message === 'stripe: could not create a checkout session')!;
  assert.is(line.level, 'warn');
  assert.is(line.fields?.['status'], 500);
  assert.match(String(line.fields?.['requestId']), /^req_/);
});

test('an answer that never comes ends at the timeout as a 500 that says to retry', async ({ f }) => {
  const { sessionId } = await f.gateway.createCheckout({ sku: 'standard', channel: null });
  f.stripe.failNext({ kind: 'stall' });
  const started = performance.now();
  const error = await rejection(f.gateway.checkStatus(stored(sessionId)));
  const elapsed = performance.now() - started;
  assert.is(error.code, 'internal_error');
  assert.is(error.resolution, RETRY_RESOLUTION);
  assert.ok(
    elapsed >= STRIPE_TIMEOUT_MS - 50 && elapsed < STRIPE_TIMEOUT_MS + loadScaled(2500),
    `gave up after ${elapsed} ms with a ${STRIPE_TIMEOUT_MS} ms timeout`,
  );
  assert.match(String(f.logger.lines.at(-1)?.fields?.['detail']), `no answer within ${STRIPE_TIMEOUT_MS} ms`);
});

test('a dropped connection is a 500 that says to retry, and the failure is not cached', async ({ f }) => {
  const { sessionId } = await f.gateway.createCheckout({ sku: 'standard', channel: null });
  f.stripe.failNext({ kind: 'drop' });
  const error = await rejection(f.gateway.checkStatus(stored(sessionId)));
  assert.is(error.resolution, RETRY_RESOLUTION);
  assert.match(String(f.logger.lines.at(-1)?.fields?.['detail']), /^network error/);
  assert.is((await f.gateway.checkStatus(stored(sessionId))).status, 'pending');
});

test('a 429 is retried after its Retry-After with the same Idempotency-Key', async ({ f }) => {
  f.stripe.failNext({
    kind: 'status',
    status: 429,
    headers: { 'retry-after': '1' },
    body: { error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' } },
  });
  const created = await f.gateway.createCheckout({ sku: 'standard', channel: 'store' });
  assert.equal(f.waits, [1000]);
  assert.is(f.stripe.requests.length, 2);
  assert.is(f.stripe.requests[0]!.headers['idempotency-key'], f.stripe.requests[1]!.headers['idempotency-key']);
  assert.is(f.stripe.requests[0]!.rawBody, f.stripe.requests[1]!.rawBody);
  assert.match(created.sessionId, /^cs_test_/);
});

test('a 429 without Retry-After backs off 500 ms, then 1 s', async ({ f }) => {
  f.stripe.failNext({ kind: 'status', status: 429, body: { error: { type: 'invalid_request_error', code: 'rate_limit' } } });
  f.stripe.failNext({ kind: 'status', status: 429, body: { error: { type: 'invalid_request_error', code: 'rate_limit' } } });
  await f.gateway.createCheckout({ sku: 'standard', channel: null });
  assert.equal(f.waits, [500, 1000]);
  assert.is(f.stripe.requests.length, 3);
});

test('a 429 that lasts past two retries, or asks for a long wait, is a 500 that says to retry', async ({ f }) => {
  for (let i = 0; i < 3; i++) f.stripe.failNext({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
  const error = await rejection(f.gateway.createCheckout({ sku: 'standard', channel: null }));
  assert.is(error.resolution, RETRY_RESOLUTION);
  assert.equal(f.waits, [1000, 1000]);
  assert.is(f.stripe.requests.length, 3);

  f.stripe.failNext({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
  const long = await rejection(f.gateway.createCheckout({ sku: 'standard', channel: null }));
  assert.is(long.resolution, RETRY_RESOLUTION);
  assert.equal(f.waits, [1000, 1000]);
  assert.is(f.stripe.requests.length, 4);
});

test('a refused secret key is a 500 without retry advice and an error log naming STRIPE_SECRET_KEY', async () => {
  const f = await stripeFixture({ secretKey: 'sk_test_wrong' });
  try {
    const error = await rejection(f.gateway.createCheckout({ sku: 'standard', channel: null }));
    assert.equal(error.toBody(), {
      code: 'internal_error',
      message: 'The payment provider refused the request.',
      resolution: 'Retry later; if the problem persists, contact support.',
    });
    const line = f.logger.lines.at(-1)!;
    assert.is(line.level, 'error');
    assert.match(line.message, 'STRIPE_SECRET_KEY is refused (401)');
    assert.match(String(line.fields?.['detail']), 'Invalid API Key provided: sk_test_****rong');
  } finally {
    await f.close();
  }
});

test.run();
