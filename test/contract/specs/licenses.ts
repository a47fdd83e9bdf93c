/** POST /api/v1/licenses/validate (an addition to the spec), on every runtime: valid after a simulator payment, revoked after its refund, unknown, 400. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { expectError, expectJson, JSON_BODY } from './_expect.ts';

/** A key of the docs' test vector: well formed, never issued by a server under test. */
const FOREIGN_KEY =
  '202GK-N4ZFF-SPXBH-S5Q94-Q6YRP-EX2MH-7RQ99-K6NHH-TM0W7-M04FT-NPEKP-20BCM-Z4DYN-BHB34-NA23S-HMYH6-VDF90-Z8TFG-9SVN6-ZDZQR-8BE0P-BYH9M-579CT-FN488';

export const licensesSpec: Spec = (it) => {
  it("a key paid in the simulator is valid with a lease; after the simulator's refund it is revoked; each answer signed over the key", async (server) => {
    const from = server.newClient();
    const { sessionId } = (await server.request({ method: 'POST', path: '/api/v1/checkout/create', from })).json() as { sessionId: string };
    await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, from });
    const { licenseKey } = (await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}`, from })).json() as { licenseKey: string };
    const validate = () =>
      server.request({ method: 'POST', path: '/api/v1/licenses/validate', headers: JSON_BODY, body: JSON.stringify({ licenseKey }), from });
    const valid = await validate();
    assert.is(valid.status, 200, valid.text);
    const body = valid.json() as { standing: string; product: string; validUntil: string };
    assert.equal([body.standing, body.product], ['valid', 'standard']);
    assert.match(body.validUntil, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(
      valid.headers['signature-input'] ?? '',
      /^update=\("@status" "content-digest" "license-key-digest"\);created=\d+;expires=\d+;keyid="[\w-]{43}";alg="ed25519";tag="license-standing"$/,
    );
    assert.ok(valid.headers['ratelimit-limit']);
    await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/refund`, from });
    expectJson(await validate(), 200, { standing: 'revoked', product: null, validUntil: null });
  }, { smoke: true });

  it('a well-formed key the server never issued is unknown, at the /api alias too; a text that is no key is 400 invalid_request', async (server) => {
    const from = server.newClient();
    const post = (path: string, licenseKey: string) => server.request({ method: 'POST', path, headers: JSON_BODY, body: JSON.stringify({ licenseKey }), from });
    for (const path of ['/api/v1/licenses/validate', '/api/licenses/validate']) {
      expectJson(await post(path, FOREIGN_KEY), 200, { standing: 'unknown', product: null, validUntil: null });
    }
    expectError(
      await post('/api/v1/licenses/validate', 'not a key'),
      400,
      'invalid_request',
      'Field "licenseKey" must be a license key: 24 groups of 5 Crockford base32 characters, or key/... for a key issued before that format.',
    );
  });
};
