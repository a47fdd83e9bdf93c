import { createHmac } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { constantTimeEqual, verifyStripeSignature } from '../../adapters/stripe/signature.ts';

const SECRET = 'whsec_test_endpoint_secret';
const BODY = '{"id":"evt_1","object":"event","type":"checkout.session.completed","data":{"object":{"id":"cs_1"}}}';
const T = 1_790_000_000;
const bytes = (text: string) => new TextEncoder().encode(text);

/** The v1 signature as Stripe documents it, computed with node:crypto. */
function v1(body: string, t: number, secret = SECRET): string {
  return createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
}

test('a header signed as documented is accepted', async () => {
  assert.is(await verifyStripeSignature(`t=${T},v1=${v1(BODY, T)}`, bytes(BODY), SECRET, T), 'ok');
});

test('any v1 candidate may match (secret roll), v0 and unknown schemes are ignored, spaces are tolerated', async () => {
  const header = `t=${T}, v0=${v1(BODY, T, 'other')}, v1=${'0'.repeat(64)}, v1=${v1(BODY, T)}, x9=abc`;
  assert.is(await verifyStripeSignature(header, bytes(BODY), SECRET, T), 'ok');
});

test('the signature covers the exact bytes: a changed body, another secret or another t is a mismatch', async () => {
  const header = `t=${T},v1=${v1(BODY, T)}`;
  assert.is(await verifyStripeSignature(header, bytes(BODY.replace('cs_1', 'cs_2')), SECRET, T), 'mismatch');
  assert.is(await verifyStripeSignature(header, bytes(`${BODY}\n`), SECRET, T), 'mismatch');
  assert.is(await verifyStripeSignature(header, bytes(BODY), 'whsec_other', T), 'mismatch');
  assert.is(await verifyStripeSignature(`t=${T + 1},v1=${v1(BODY, T)}`, bytes(BODY), SECRET, T), 'mismatch');
  assert.is(await verifyStripeSignature(`t=${T},v1=${v1(BODY, T).toUpperCase()}`, bytes(BODY), SECRET, T), 'mismatch');
});

test('a body that is not valid UTF-8 is verified byte for byte', async () => {
  const raw = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]);
  const mac = createHmac('sha256', SECRET).update(Buffer.concat([Buffer.from(`${T}.`), Buffer.from(raw)])).digest('hex');
  assert.is(await verifyStripeSignature(`t=${T},v1=${mac}`, raw, SECRET, T), 'ok');
});

test('the timestamp must be within 300 s of now, in either direction', async () => {
  const header = `t=${T},v1=${v1(BODY, T)}`;
  assert.is(await verifyStripeSignature(header, bytes(BODY), SECRET, T + 300), 'ok');
  assert.is(await verifyStripeSignature(header, bytes(BODY), SECRET, T + 301), 'stale');
  assert.is(await verifyStripeSignature(header, bytes(BODY), SECRET, T - 301), 'stale');
});

test('a missing or malformed header is refused', async () => {
  assert.is(await verifyStripeSignature(undefined, bytes(BODY), SECRET, T), 'missing');
  assert.is(await verifyStripeSignature(' ', bytes(BODY), SECRET, T), 'missing');
  assert.is(await verifyStripeSignature(`v1=${v1(BODY, T)}`, bytes(BODY), SECRET, T), 'malformed');
  assert.is(await verifyStripeSignature(`t=${T}`, bytes(BODY), SECRET, T), 'malformed');
  assert.is(await verifyStripeSignature(`t=${T},v0=${v1(BODY, T)}`, bytes(BODY), SECRET, T), 'malformed');
  assert.is(await verifyStripeSignature(`t=soon,v1=${v1(BODY, T)}`, bytes(BODY), SECRET, T), 'malformed');
});

test('constantTimeEqual compares whole strings of any length', () => {
  assert.ok(constantTimeEqual('abc', 'abc'));
  assert.not.ok(constantTimeEqual('abc', 'abd'));
  assert.not.ok(constantTimeEqual('abc', 'ab'));
  assert.not.ok(constantTimeEqual('', 'a'));
  assert.not.ok(constantTimeEqual('a', ''));
  assert.ok(constantTimeEqual('', ''));
});

test.run();
