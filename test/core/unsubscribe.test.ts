/**
 * The unsubscribe address (POST /api/v1/unsubscribe, GET its page; additions to the spec) answers what
 * /openapi.json says of its token: a token the document's pattern refuses is 400 invalid_parameter, a token it
 * allows that this server did not make is 404 token_not_found (no such address exists; issue 53: Schemathesis
 * found such tokens answered 400), and a token this server made is answered, on both paths and the alias.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createUnsubscribeTokens } from '../../core/mail/unsubscribe.ts';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const test = suite('unsubscribe');
const SECRET = 'test-secret';
const known = createUnsubscribeTokens(SECRET).tokenFor('ann@example.com');
const [address, hash] = known.split('.') as [string, string];

/** The token parameter's JSON Schema, as /openapi.json gives it for one operation. */
async function tokenSchema(operationId: string): Promise<object> {
  const t = await createTestApp();
  const doc = bodyJson(await t.app.handle(coreRequest({ path: '/openapi.json' }))) as {
    paths: Record<string, Record<string, { operationId: string; parameters: { name: string; schema: object }[] }>>;
  };
  const operation = Object.values(doc.paths).flatMap((path) => Object.values(path)).find((op) => op.operationId === operationId)!;
  return operation.parameters.find((parameter) => parameter.name === 'token')!.schema;
}

const NOT_FOUND = {
  code: 'token_not_found',
  message: 'No unsubscribe address of this server has this token.',
  resolution: 'Use the unsubscribe address exactly as the mail gave it; nothing was changed.',
};

/** Well-formed tokens this server did not make: another server's, an altered hash, an altered address, not UTF-8, upper case. */
const WELL_FORMED_UNKNOWN = [
  createUnsubscribeTokens('another-secret').tokenFor('ann@example.com'),
  `${address}.${hash.slice(0, -1)}${hash.endsWith('A') ? 'B' : 'A'}`,
  `${address.slice(0, -2)}AA.${hash}`,
  `__8.${hash}`,
  `${createUnsubscribeTokens(SECRET).tokenFor('ann@example.com').split('.')[0]!.toUpperCase()}.${hash}`,
  `A0.${'A'.repeat(22)}`,
];

/** Tokens of another shape: no dot, a hash of 21 or 23 characters, an address no bytes encode to (5 characters), too long, not base64url. */
const MALFORMED = [
  'nonsense',
  'not-a-token',
  `${address}.${hash.slice(1)}`,
  `${address}.${hash}A`,
  `AAAAA.${hash}`,
  `${'A'.repeat(704)}.${hash}`,
  `a+b=.${hash}`,
  `.${hash}`,
];

test('the document allows the well-formed unknown tokens and refuses the malformed ones', async () => {
  const ajv = new Ajv2020({ strict: true });
  for (const operationId of ['unsubscribe', 'getUnsubscribePage']) {
    const valid = ajv.compile(await tokenSchema(operationId));
    assert.ok(valid(known), operationId);
    for (const token of WELL_FORMED_UNKNOWN) assert.ok(valid(token), `${operationId} ${token}`);
    for (const token of MALFORMED) assert.not.ok(valid(token), `${operationId} ${token}`);
  }
});

test('a well-formed token this server did not make is 404 token_not_found on POST, GET and the alias; nothing changes', async () => {
  const t = await createTestApp({ voterSecret: SECRET });
  for (const [method, path] of [['POST', '/api/v1/unsubscribe'], ['GET', '/api/v1/unsubscribe'], ['POST', '/api/unsubscribe']] as const) {
    for (const token of WELL_FORMED_UNKNOWN) {
      const response = await t.app.handle(coreRequest({ method, path, query: new URLSearchParams({ token }).toString() }));
      assert.is(response.status, 404, `${method} ${path} ${token}`);
      assert.is(response.headers['ratelimit-limit'], '120');
      assert.is(response.headers['cache-control'], 'no-store');
      assert.equal(bodyJson(response), NOT_FOUND);
    }
  }
  assert.equal(await t.storage.shipping.unsubscribed(), []);
});

test('a malformed, missing or repeated token is 400 invalid_parameter; a token this server made is answered', async () => {
  const t = await createTestApp({ voterSecret: SECRET });
  for (const method of ['POST', 'GET'] as const) {
    const queries = [...MALFORMED.map((token) => new URLSearchParams({ token }).toString()), '', `token=${known}&token=${known}`];
    for (const query of queries) {
      const response = await t.app.handle(coreRequest({ method, path: '/api/v1/unsubscribe', query }));
      assert.is(response.status, 400, `${method} ${query}`);
      assert.is((bodyJson(response) as { code: string }).code, 'invalid_parameter', `${method} ${query}`);
    }
  }
  assert.is((await t.app.handle(coreRequest({ path: '/api/v1/unsubscribe', query: `token=${known}` }))).status, 200);
  const done = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/unsubscribe', query: `token=${known}` }));
  assert.equal(bodyJson(done), { unsubscribed: true, message: 'This address gets no more messages about shipped requests.' });
  assert.equal(await t.storage.shipping.unsubscribed(), ['ann@example.com']);
});

test.run();
