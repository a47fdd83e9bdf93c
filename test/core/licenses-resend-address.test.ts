/**
 * POST /licenses/resend accepts exactly what its OpenAPI says: the email's `pattern` (one addr-spec in
 * dot-atom form, the rule every buyer email that mail takes follows) and `maxLength`, with no
 * `format: email`, whose wider grammar (quoted local parts, address literals) the server never took.
 * Schemathesis found `0@com` refused although `format: email` allows it. In process on memory storage.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const ACCEPTED = { accepted: true, message: 'If this address has valid licenses on file, a message with them is on its way to it.' };

test('the document gives the email a pattern and a maximum length, and no format', async () => {
  const { app } = await createTestApp();
  const doc = bodyJson(await app.handle(coreRequest({ path: '/openapi.json' }))) as {
    components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>> }> };
  };
  const email = doc.components.schemas['LicenseResendRequest']!.properties['email']!;
  assert.equal(Object.keys(email).sort(), ['description', 'maxLength', 'pattern', 'type']);
  assert.is(email['maxLength'], 320);
});

test('an address is accepted (202) exactly when it matches the documented pattern and length', async () => {
  const { app } = await createTestApp();
  const doc = bodyJson(await app.handle(coreRequest({ path: '/openapi.json' }))) as {
    components: { schemas: Record<string, { properties: Record<string, { pattern: string }> }> };
  };
  const documented = new RegExp(doc.components.schemas['LicenseResendRequest']!.properties['email']!.pattern);
  const addresses = [
    '0@com',
    'ada@example.com',
    "o'brien+keys@mail.example.ie",
    'x!#$%&*/=?^`{|}~@example.com',
    `${'a'.repeat(300)}@example.com`,
    `${'a'.repeat(320)}@example.com`,
    'a@x.com, b@y.com',
    'Ada <ada@example.com>',
    '"a b"@example.com',
    'ada@[127.0.0.1]',
    'a..b@example.com',
    'adä@example.com',
    'ada@example.com ',
    '',
  ];
  for (const [i, email] of addresses.entries()) {
    const answer = await app.handle(coreRequest({ method: 'POST', path: '/api/v1/licenses/resend', clientIp: `198.51.100.${i + 1}`, json: { email } }));
    const expected = email.length <= 320 && documented.test(email);
    if (expected) assert.equal([answer.status, bodyJson(answer)], [202, ACCEPTED], email);
    else {
      assert.is(answer.status, 400, email);
      assert.is((bodyJson(answer) as { code: string }).code, 'invalid_request', email);
      assert.match((bodyJson(answer) as { message: string }).message, '"email"', email);
    }
  }
  const list = await app.handle(
    coreRequest({ method: 'POST', path: '/api/v1/licenses/resend', clientIp: '198.51.100.99', json: { email: 'a@x.com, b@y.com' } }),
  );
  assert.match((bodyJson(list) as { message: string }).message, 'must be one email address such as ada@example.com (no name, no brackets, no list)');
});

test.run();
