import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { publicKeyOf, SIMULATOR_KEY_PREFIX, verifyLicenseKey } from '../../core/licensing/license.ts';
import { compactClaims } from '../_licenses.ts';
import { bodyJson, bodyText, coreRequest, createTestApp } from '../_setup.ts';

const checkout = suite('checkout');
const INVALID = 'Fix the request body or query as the message says; /openapi.json describes every field.';
type T = Awaited<ReturnType<typeof createTestApp>>;

async function create(t: T, json?: unknown): Promise<{ sessionId: string; url: string }> {
  const response = await t.app.handle(
    coreRequest(json === undefined ? { method: 'POST', path: '/api/v1/checkout/create' } : { method: 'POST', path: '/api/v1/checkout/create', json }),
  );
  assert.is(response.status, 200);
  return bodyJson(response) as { sessionId: string; url: string };
}
const status = async (t: T, query: string) => t.app.handle(coreRequest({ path: '/api/v1/checkout/status', query }));
const press = (t: T, sessionId: string, action: string) => t.app.handle(coreRequest({ method: 'POST', path: `/checkout/simulator/${sessionId}/${action}` }));

const NO_KEYS = { licenseKey: null, standardLicenseKey: null, plusLicenseKey: null };

checkout('create without a body opens a standard session with no channel; status is pending with no keys', async () => {
  const t = await createTestApp();
  const { sessionId, url } = await create(t);
  assert.match(sessionId, /^cs_sim_[A-Za-z0-9_-]{32}$/);
  assert.is(url, `http://localhost:8080/checkout/simulator/${sessionId}`);
  const stored = await t.storage.checkouts.getCheckout(sessionId);
  assert.equal(stored, {
    id: sessionId,
    sku: 'standard',
    channel: null,
    url,
    state: 'pending',
    createdAt: t.clock.now(),
    expiresAt: t.clock.now() + 24 * 3600_000,
  });
  const response = await status(t, `session_id=${sessionId}`);
  assert.is(response.status, 200);
  assert.equal(bodyJson(response), { status: 'pending', ...NO_KEYS });
});

checkout('session ids are unguessable and distinct', async () => {
  // One client opening 50: the cap of open sessions per client (test/stripe/checkout-cap.test.ts) is raised.
  const t = await createTestApp({ openCheckoutsPerClient: 50 });
  const ids = new Set<string>();
  for (let i = 0; i < 50; i++) ids.add((await create(t)).sessionId);
  assert.is(ids.size, 50);
});

checkout('product and channel are stored as given', async () => {
  const t = await createTestApp();
  const { sessionId } = await create(t, { product: 'plus_bundle', channel: 'msi' });
  const stored = await t.storage.checkouts.getCheckout(sessionId);
  assert.is(stored!.sku, 'plus_bundle');
  assert.is(stored!.channel, 'msi');
});

checkout('an empty JSON object body is the same as no body', async () => {
  const t = await createTestApp();
  const { sessionId } = await create(t, {});
  assert.is((await t.storage.checkouts.getCheckout(sessionId))!.sku, 'standard');
});

for (
  const [name, body, message] of [
    ['an unknown product', { product: 'enterprise' }, 'Field "product" must be one of standard, plus_addon, plus_bundle.'],
    ['an unknown channel', { channel: 'web' }, 'Field "channel" must be one of store, msi.'],
    ['a product that is not a string', { product: 1 }, 'Field "product" must be one of standard, plus_addon, plus_bundle.'],
    ['another field', { product: 'standard', coupon: 'FREE' }, 'Unknown field "coupon": this request accepts only product, channel.'],
  ] as const
) {
  checkout(`create with ${name} is 400 invalid_request`, async () => {
    const t = await createTestApp();
    const response = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: body }));
    assert.is(response.status, 400);
    assert.equal(bodyJson(response), { code: 'invalid_request', message, resolution: INVALID });
  });
}

for (
  const [sku, expected] of [
    ['standard', ['standard', null]],
    ['plus_addon', [null, 'plus']],
    ['plus_bundle', ['standard', 'plus']],
  ] as const
) {
  checkout(`a paid ${sku} session gets its keys once, marked sim/: they verify only as simulator keys`, async () => {
    const t = await createTestApp();
    const { sessionId } = await create(t, { product: sku });
    const paid = await press(t, sessionId, 'pay');
    assert.is(paid.status, 303);
    assert.is(paid.headers['location'], `/checkout/simulator/${sessionId}`);
    const first = bodyJson(await status(t, `session_id=${sessionId}`)) as Record<string, string | null>;
    const again = bodyJson(await status(t, `session_id=${sessionId}`));
    assert.equal(again, first);
    assert.is(first['status'], 'paid');
    assert.is(first['licenseKey'], first['standardLicenseKey'] ?? first['plusLicenseKey']);
    const publicKey = await publicKeyOf(await t.storage.secret('license-signing-key', () => 'unused'));
    const products = [first['standardLicenseKey'], first['plusLicenseKey']].map(async (key) =>
      key === null ? null : (await verifyLicenseKey(key!, publicKey, SIMULATOR_KEY_PREFIX))?.product ?? 'INVALID'
    );
    assert.equal(await Promise.all(products), expected);
    assert.is(await verifyLicenseKey(first['licenseKey']!, publicKey), null);
    const payload = await verifyLicenseKey(first['licenseKey']!, publicKey, SIMULATOR_KEY_PREFIX);
    assert.equal(payload, compactClaims(expected[0] ?? 'plus', sku, sessionId, t.clock.now()));
  });
}

checkout('many polls racing on a paid session all see the same keys', async () => {
  const t = await createTestApp();
  const { sessionId } = await create(t, { product: 'plus_bundle' });
  await press(t, sessionId, 'pay');
  const bodies = await Promise.all(Array.from({ length: 20 }, () => status(t, `session_id=${sessionId}`).then(bodyText)));
  assert.is(new Set(bodies).size, 1);
});

checkout('a delayed payment is processing, then paid', async () => {
  const t = await createTestApp();
  const { sessionId } = await create(t);
  await press(t, sessionId, 'delay');
  assert.equal(bodyJson(await status(t, `session_id=${sessionId}`)), { status: 'processing', ...NO_KEYS });
  t.clock.advance(48 * 3600_000);
  assert.equal(bodyJson(await status(t, `session_id=${sessionId}`)), { status: 'processing', ...NO_KEYS });
  await press(t, sessionId, 'pay');
  assert.is((bodyJson(await status(t, `session_id=${sessionId}`)) as { status: string }).status, 'paid');
});

checkout('a failed delayed payment is 400 payment_failed', async () => {
  const t = await createTestApp();
  const { sessionId } = await create(t);
  await press(t, sessionId, 'delay');
  await press(t, sessionId, 'fail');
  const response = await status(t, `session_id=${sessionId}`);
  assert.is(response.status, 400);
  assert.equal(bodyJson(response), {
    code: 'payment_failed',
    message: 'The payment for this checkout session failed.',
    resolution: 'The payment did not go through; create a new checkout session and pay with another method.',
  });
});

checkout('an unpaid session expires after 24 hours: 400 session_expired, and it can no longer be paid', async () => {
  const t = await createTestApp();
  const { sessionId } = await create(t);
  t.clock.advance(24 * 3600_000 - 1);
  assert.is((bodyJson(await status(t, `session_id=${sessionId}`)) as { status: string }).status, 'pending');
  t.clock.advance(1);
  await press(t, sessionId, 'pay');
  const response = await status(t, `session_id=${sessionId}`);
  assert.is(response.status, 400);
  assert.equal(bodyJson(response), {
    code: 'session_expired',
    message: 'The checkout session expired before it was paid.',
    resolution: 'The checkout session expired before payment; create a new one with POST /api/v1/checkout/create.',
  });
  assert.is((await t.storage.checkouts.getCheckout(sessionId))!.state, 'expired');
});

checkout('cancel leaves the session open', async () => {
  const t = await createTestApp();
  const { sessionId } = await create(t);
  const cancelled = await press(t, sessionId, 'cancel');
  assert.is(cancelled.headers['location'], `/checkout/simulator/${sessionId}?cancelled=1`);
  const page = await t.app.handle(coreRequest({ path: `/checkout/simulator/${sessionId}`, query: 'cancelled=1' }));
  assert.match(bodyText(page), 'Payment cancelled. The session stays open until it expires, so you can still pay.');
  assert.match(bodyText(page), `action="/checkout/simulator/${sessionId}/pay"`);
  assert.equal(bodyJson(await status(t, `session_id=${sessionId}`)), { status: 'pending', ...NO_KEYS });
});

checkout('an unknown session_id is 400 unknown_session', async () => {
  const t = await createTestApp();
  const response = await status(t, 'session_id=cs_sim_doesnotexist');
  assert.is(response.status, 400);
  assert.equal(bodyJson(response), {
    code: 'unknown_session',
    message: 'No checkout session has this session_id.',
    resolution: 'Use the sessionId returned by POST /api/v1/checkout/create, or create a new checkout session.',
  });
});

for (
  const [name, query, message] of [
    ['a missing session_id', '', 'Query parameter "session_id" is required: a non-empty id of at most 255 characters.'],
    ['an empty session_id', 'session_id=', 'Query parameter "session_id" is required: a non-empty id of at most 255 characters.'],
    [
      'a session_id over 255 characters',
      `session_id=${'x'.repeat(256)}`,
      'Query parameter "session_id" is required: a non-empty id of at most 255 characters.',
    ],
    ['two session_ids', 'session_id=a&session_id=b', 'Query parameter "session_id" is given more than once.'],
  ] as const
) {
  checkout(`status with ${name} is 400 invalid_request`, async () => {
    const t = await createTestApp();
    const response = await status(t, query);
    assert.is(response.status, 400);
    assert.equal(bodyJson(response), { code: 'invalid_request', message, resolution: INVALID });
  });
}

checkout('the simulator page says it is a simulator and offers Pay', async () => {
  const t = await createTestApp();
  const { sessionId } = await create(t);
  const page = await t.app.handle(coreRequest({ path: `/checkout/simulator/${sessionId}` }));
  assert.is(page.status, 200);
  assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(bodyText(page), 'PAYMENT SIMULATOR: no money is taken.');
  assert.match(bodyText(page), `action="/checkout/simulator/${sessionId}/pay"`);
  const missing = await t.app.handle(coreRequest({ path: '/checkout/simulator/cs_sim_nope' }));
  assert.is(missing.status, 404);
  assert.match(bodyText(missing), 'No such checkout session');
});

checkout.run();
