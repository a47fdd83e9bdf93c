/**
 * POST /api/v1/licenses/validate: a key bought through the payment simulator is valid, with its product
 * and a lease from the injected clock; the simulator's Refund (what Stripe's charge.refunded does) makes it
 * revoked, a dispute revokes and a won one reinstates; a key no order holds is unknown; a text that is no
 * key is a 400. Every 200 is signed, and the independent verifier of test/_update-signature.ts accepts it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLicenseIssuer, generateSigningKey, publicKeyOf } from '../../core/licensing/license.ts';
import type { CoreResponse } from '../../core/http/http.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp, type TestAppOptions } from '../_setup.ts';
import { licenseRefusal, refusal } from '../_update-signature.ts';

interface Context {
  t: TestApp;
  publicKey: string;
}
const test = suite<Context>('POST /api/v1/licenses/validate', {} as Context);

async function setUp(context: Context, options: TestAppOptions = {}) {
  const key = await generateSigningKey();
  context.publicKey = await publicKeyOf(key);
  context.t = await createTestApp({ licenses: await createLicenseIssuer(key), ...options });
}
test.before.each((context) => setUp(context));

const plain = (headers: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));

/** A session of `product` paid on the simulator's page; its keys as checkout/status gives them. */
async function buy({ t }: Context, product = 'standard'): Promise<{ id: string; standard: string | null; plus: string | null }> {
  const created = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: { product } }));
  const { sessionId } = bodyJson(created) as { sessionId: string };
  await t.app.handle(coreRequest({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay` }));
  const status = bodyJson(await t.app.handle(coreRequest({ path: '/api/v1/checkout/status', query: `session_id=${sessionId}` }))) as Record<
    string,
    string | null
  >;
  return { id: sessionId, standard: status['standardLicenseKey'] ?? null, plus: status['plusLicenseKey'] ?? null };
}

const press = ({ t }: Context, id: string, action: string) => t.app.handle(coreRequest({ method: 'POST', path: `/checkout/simulator/${id}/${action}` }));

const validate = ({ t }: Context, licenseKey: unknown, path = '/api/v1/licenses/validate') =>
  t.app.handle(coreRequest({ method: 'POST', path, json: { licenseKey } }));

const validateWith = ({ t }: Context, json: Record<string, unknown>) => t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/licenses/validate', json }));

/** The answer's body, after the independent verifier accepted its signature for `licenseKey`. */
function verified(context: Context, answer: CoreResponse, licenseKey: string): unknown {
  assert.is(answer.status, 200);
  const refused = licenseRefusal(
    { status: 200, headers: plain(answer.headers), body: bodyText(answer) },
    context.publicKey,
    Math.floor(context.t.clock.now() / 1000),
    licenseKey,
  );
  assert.is(refused, null);
  return bodyJson(answer);
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const DAY = 86_400_000;

test('a paid key is valid: its product, a lease of 14 days from now (to the second), signed over the body and the key', async (context) => {
  const { id, standard } = await buy(context);
  context.t.clock.advance(1500);
  const answer = await validate(context, standard);
  const now = context.t.clock.now();
  assert.equal(verified(context, answer, standard!), { standing: 'valid', product: 'standard', validUntil: iso(now - (now % 1000) + 14 * DAY) });
  assert.is(bodyText(answer), `{"standing":"valid","product":"standard","validUntil":"${iso(now - (now % 1000) + 14 * DAY)}"}`);
  assert.is(answer.headers['content-type'], 'application/json');
  assert.is(answer.headers['ratelimit-limit'], '120');
  assert.is(answer.headers['cache-control'], 'no-store');
  assert.match(
    answer.headers['signature-input']!,
    /^update=\("@status" "content-digest" "license-key-digest"\);created=\d+;expires=\d+;keyid="[\w-]+";alg="ed25519";tag="license-standing"$/,
  );
  // A standing is never an update answer.
  assert.is(refusal({ status: 200, headers: plain(answer.headers), body: bodyText(answer) }, context.publicKey, Math.floor(now / 1000)), 'another tag');
  // The same answer for another key does not verify for it.
  const other = await buy(context);
  assert.is(
    licenseRefusal({ status: 200, headers: plain(answer.headers), body: bodyText(answer) }, context.publicKey, Math.floor(now / 1000), other.standard!),
    'an answer about another key',
  );
  assert.ok(id);
});

test('a bundle has two keys: the standard one unlocks standard, the plus one plus; a key as a person types it is the same key', async (context) => {
  const { standard, plus } = await buy(context, 'plus_bundle');
  const lease = iso(context.t.clock.now() + 14 * DAY);
  assert.equal(verified(context, await validate(context, standard), standard!), { standing: 'valid', product: 'standard', validUntil: lease });
  assert.equal(verified(context, await validate(context, plus), plus!), { standing: 'valid', product: 'plus', validUntil: lease });
  const typed = ` ${plus!.replaceAll('-', '').toLowerCase().replace(/(.{10})/g, '$1 ').replaceAll('0', 'o')} `;
  assert.equal(
    verified(context, await validate(context, typed), typed),
    { standing: 'valid', product: 'plus', validUntil: lease },
    'the digest is of the text as sent',
  );
});

test('a refund on the simulator revokes: revoked, product and validUntil null, still signed; a dispute revokes and a won one reinstates', async (context) => {
  const refunded = await buy(context);
  await press(context, refunded.id, 'refund');
  assert.equal(verified(context, await validate(context, refunded.standard), refunded.standard!), { standing: 'revoked', product: null, validUntil: null });
  const disputed = await buy(context, 'plus_addon');
  await press(context, disputed.id, 'dispute');
  assert.equal(verified(context, await validate(context, disputed.plus), disputed.plus!), { standing: 'revoked', product: null, validUntil: null });
  await press(context, disputed.id, 'dispute-won');
  assert.is((verified(context, await validate(context, disputed.plus), disputed.plus!) as { standing: string }).standing, 'valid');
});

test("a key no order holds is unknown, signed: another signing key's, a changed character, a version-1 key never issued", async (context) => {
  const { standard } = await buy(context);
  const foreign = await (await createLicenseIssuer(await generateSigningKey())).issue({
    sessionId: 'cs_elsewhere',
    sku: 'standard',
    product: 'standard',
    issuedAt: context.t.clock.now(),
    simulated: true,
  });
  const changed = `${standard!.slice(0, 20)}${standard![20] === '5' ? '6' : '5'}${standard!.slice(21)}`;
  for (const key of [foreign, changed, 'key/eyJ2IjoxfQ.c2lnbmF0dXJl']) {
    assert.equal(verified(context, await validate(context, key), key), { standing: 'unknown', product: null, validUntil: null }, key);
  }
});

test('a payment-simulator key is unknown to a server that takes real payments', async (context) => {
  const { standard } = await buy(context);
  const real = await createTestApp({
    storage: context.t.storage,
    gateway: { ...context.t.gateway, simulated: false },
    licenses: await createLicenseIssuer(await generateSigningKey()),
  });
  const answer = await real.app.handle(coreRequest({ method: 'POST', path: '/api/v1/licenses/validate', json: { licenseKey: standard } }));
  assert.equal(bodyJson(answer), { standing: 'unknown', product: null, validUntil: null });
});

test('the lease follows licenseLeaseDays; the alias /api/licenses/validate answers the same', async (context) => {
  await setUp(context, { licenseLeaseDays: 3 });
  const { standard } = await buy(context);
  const answer = await validate(context, standard, '/api/licenses/validate');
  assert.equal(verified(context, answer, standard!), { standing: 'valid', product: 'standard', validUntil: iso(context.t.clock.now() + 3 * DAY) });
});

test('a text that is no key is refused with 400 invalid_request naming the field; so is a missing key', async (context) => {
  const invalid = (field: string, problem: string) => ({
    code: 'invalid_request',
    message: `Field "${field}" ${problem}.`,
    resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
  });
  const shape = 'must be a license key: 24 groups of 5 Crockford base32 characters, or key/... for a key issued before that format';
  for (const bad of ['', 'hello', 'U'.repeat(120), '2'.repeat(119), 'key/abc', 'key/a.b.c']) {
    const answer = await validate(context, bad);
    assert.is(answer.status, 400, bad);
    assert.equal(bodyJson(answer), invalid('licenseKey', shape), bad);
    assert.is(answer.headers['signature'], undefined, 'errors are not signed');
  }
  const tooLong = await validate(context, `key/${'a'.repeat(2000)}.b`);
  assert.equal(bodyJson(tooLong), invalid('licenseKey', 'must be a license key (at most 1024 characters)'));
  const missing = await context.t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/licenses/validate', json: {} }));
  assert.equal([missing.status, (bodyJson(missing) as { code: string }).code], [400, 'invalid_request']);
});

test("a nonce the app sends is the signature's nonce parameter: the answer verifies for it, and not for a fresh one; none sent, none signed", async (context) => {
  const { plus } = await buy(context, 'plus_addon');
  const sent = 'q3Jx9VdJ0mYt1bR7cLw2Eg';
  const answer = await validateWith(context, { licenseKey: plus, nonce: sent });
  const now = Math.floor(context.t.clock.now() / 1000);
  const signed = { status: answer.status, headers: plain(answer.headers), body: bodyText(answer) };
  assert.is(answer.status, 200);
  assert.equal(bodyJson(answer), { standing: 'valid', product: 'plus', validUntil: iso(context.t.clock.now() + 14 * DAY) }, 'the body does not change');
  assert.match(signed.headers['signature-input']!, new RegExp(`;expires=\\d+;nonce="${sent}";keyid="[\\w-]+";alg="ed25519";tag="license-standing"$`));
  assert.is(licenseRefusal(signed, context.publicKey, now, plus!, sent), null);
  assert.is(licenseRefusal(signed, context.publicKey, now, plus!, 'Vf8nK2pQx0sL4aZ6dT1yHw'), 'another nonce', 'a saved answer replayed to a fresh request');
  const forged = { ...signed, headers: { ...signed.headers, 'signature-input': signed.headers['signature-input']!.replace(sent, 'Vf8nK2pQx0sL4aZ6dT1yHw') } };
  assert.is(licenseRefusal(forged, context.publicKey, now, plus!, 'Vf8nK2pQx0sL4aZ6dT1yHw'), 'the signature does not hold', 'the nonce is signed');
  const without = await validate(context, plus);
  assert.not.match(without.headers['signature-input']!, /nonce/);
  assert.is(licenseRefusal({ status: 200, headers: plain(without.headers), body: bodyText(without) }, context.publicKey, now, plus!, sent), 'another nonce');
  // The longest nonce is taken as well as the shortest.
  const longest = 'A-_z'.repeat(16);
  const long = await validateWith(context, { licenseKey: plus, nonce: longest });
  assert.is(licenseRefusal({ status: 200, headers: plain(long.headers), body: bodyText(long) }, context.publicKey, now, plus!, longest), null);
});

test('a nonce that is not 16 to 64 base64url characters is refused with 400 invalid_request naming it, unsigned', async (context) => {
  const { standard } = await buy(context);
  const shape = 'must be 16 to 64 base64url characters (A-Z, a-z, 0-9, - and _), such as 16 random bytes in base64url';
  const body = (problem: string) => ({
    code: 'invalid_request',
    message: `Field "nonce" ${problem}.`,
    resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
  });
  // /openapi.json states the field as the server takes it: optional, and the same pattern.
  const doc = bodyJson(await context.t.app.handle(coreRequest({ path: '/openapi.json' }))) as {
    components: { schemas: Record<string, { properties: Record<string, { pattern: string }>; required: string[] }> };
  };
  const stated = doc.components.schemas['LicenseValidateRequest']!;
  assert.equal(stated.required, ['licenseKey']);
  const pattern = new RegExp(stated.properties['nonce']!.pattern);
  assert.ok(pattern.test('q3Jx9VdJ0mYt1bR7') && pattern.test('A-_z'.repeat(16)));
  for (
    const nonce of [
      '',
      'a'.repeat(15),
      'a'.repeat(65),
      'q3Jx9VdJ0mYt1bR7cLw2Eg==',
      'q3Jx9VdJ0mYt1bR7+Lw2Eg',
      'q3Jx9VdJ0mYt1bR7 Lw2Eg',
      'q3Jx9VdJ0mYt1bR7"Lw2Eg',
      'łłłłłłłłłłłłłłłłłłłł',
    ]
  ) {
    const answer = await validateWith(context, { licenseKey: standard, nonce });
    assert.equal([answer.status, bodyJson(answer)], [400, body(shape)], nonce);
    assert.is(answer.headers['signature'], undefined, 'errors are not signed');
    assert.not.ok(pattern.test(nonce), `/openapi.json refuses ${nonce} too`);
  }
  for (const nonce of [12345678901234567, null, ['q3Jx9VdJ0mYt1bR7cLw2Eg']]) {
    const answer = await validateWith(context, { licenseKey: standard, nonce });
    assert.equal([answer.status, bodyJson(answer)], [400, body('must be a text of 16 to 64 base64url characters')], JSON.stringify(nonce));
  }
});

test('signAnswers: false answers the same body without signature headers', async (context) => {
  await setUp(context, { signAnswers: false });
  const { standard } = await buy(context);
  const answer = await validate(context, standard);
  assert.equal(bodyJson(answer), { standing: 'valid', product: 'standard', validUntil: iso(context.t.clock.now() + 14 * DAY) });
  assert.equal([answer.headers['signature'], answer.headers['content-digest'], answer.headers['license-key-digest']], [undefined, undefined, undefined]);
});

test.run();
