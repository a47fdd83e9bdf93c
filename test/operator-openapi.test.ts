// deno-lint-ignore-file no-explicit-any -- the test walks parsed JSON documents of arbitrary shape
/**
 * The operator listener's /openapi.json, built from the declared operations: it validates against the
 * official OpenAPI 3.1 schema and redocly's recommended rules, each path documents exactly the errors it
 * can answer with, and what the operations answer (success and refusals) matches what is documented.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OPERATOR_TOKEN, type OperatorServer, startOperatorServer } from './_operator.ts';
import { redoclyLint } from './_redocly.ts';

type Json = Record<string, any>;

const test = suite<{ op: OperatorServer; doc: Json }>('operator openapi', {} as never);

test.before(async (context) => {
  context.op = await startOperatorServer();
  const answer = await context.op.call('/openapi.json', { headers: { authorization: '' } });
  assert.is(answer.status, 200);
  context.doc = answer.json() as Json;
});
test.after(async ({ op }) => op.close());

test('validates against the official OpenAPI 3.1 schema', async ({ doc }) => {
  const result = await new Validator().validate(structuredClone(doc));
  assert.equal(result.errors, undefined);
  assert.ok(result.valid);
});

test('redocly lint with the recommended rules reports no errors and no warnings', async ({ doc }) => {
  const report = await redoclyLint(doc);
  assert.equal(report.problems, []);
});

test('each path lists exactly its own errors: statuses and codes', ({ doc }) => {
  const codes = (path: string, method: string) =>
    Object.fromEntries(
      Object.entries(doc.paths[path][method].responses).filter(([status]) => Number(status) >= 400).map((
        [status, r]: [string, any],
      ) => [status, r.content['application/json'].schema.allOf[1].properties.code.enum]),
    );
  const gate = { '401': ['unauthorized'], '403': ['forbidden'], '429': ['too_many_failures'], '500': ['internal_error'] };
  assert.equal(codes('/releases/{version}/pull', 'post'), { ...gate, '400': ['invalid_path'], '404': ['release_not_found'] });
  assert.equal(codes('/releases', 'get'), gate);
  assert.equal(codes('/releases', 'post'), {
    ...gate,
    '400': ['invalid_request'],
    '404': ['channel_not_found'],
    '409': ['release_exists', 'release_not_higher', 'release_same_msi_version'],
    '413': ['payload_too_large'],
    '415': ['unsupported_media_type'],
  });
  assert.equal(codes('/releases/{version}/rollout', 'post')['409'], ['release_pulled']);
  assert.equal(codes('/releases/{version}/promote', 'post')['404'], ['release_not_found', 'channel_not_found']);
  assert.equal(codes('/releases/{version}/promote', 'post')['409'], ['release_pulled', 'channel_not_more_stable', 'release_not_higher']);
  assert.equal(codes('/feedback', 'get'), { ...gate, '400': ['invalid_request', 'invalid_query'] });
  assert.equal(codes('/orders/{session}/upgrade', 'post'), {
    ...gate,
    '400': ['invalid_path'],
    '404': ['order_not_found'],
    '409': ['order_not_paid', 'order_revoked'],
  });
  assert.equal(codes('/roadmap/{id}/merge', 'post')['409'], ['feature_already_merged', 'merge_target_hidden']);
});

/** The schema the document gives one answer of a path, to check a real answer against. */
function answerSchema(doc: Json, path: string, method: string, status: number): Json {
  const response = doc.paths[path][method].responses[String(status)];
  assert.ok(response, `${method} ${path} documents ${status}`);
  return { ...response.content['application/json'].schema, components: doc.components, $id: `https://operator.test/${compiled++}.json` };
}

const ajv = new Ajv2020({ strict: false });
let compiled = 0;
const matches = (doc: Json, path: string, method: string, status: number, body: unknown) => {
  const schema = JSON.parse(JSON.stringify(answerSchema(doc, path, method, status)).replaceAll('"#/components/', '"#/components/'));
  const validate = ajv.compile(schema);
  assert.ok(validate(body), `${method} ${path} ${status}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body)}`);
};

test('answers match the document: successes by their output schema, refusals by their listed codes', async ({ op, doc }) => {
  const cases: [string, string, string, { json?: unknown }, number][] = [
    ['POST', '/releases', '/releases', { json: { version: '2.5.0', msiUrl: 'https://example.com/a.msi', rolloutPercent: 10 } }, 201],
    ['POST', '/releases', '/releases', { json: { version: '2.5.0', msiUrl: 'https://example.com/a.msi', rolloutPercent: 10 } }, 409],
    ['GET', '/releases', '/releases', {}, 200],
    ['POST', '/releases/9.9.9/pull', '/releases/{version}/pull', {}, 404],
    ['POST', '/roadmap/1/merge', '/roadmap/{id}/merge', { json: { into: 1 } }, 400],
    ['GET', '/feedback?limit=0', '/feedback', {}, 400],
    ['GET', '/feedback?search=%00', '/feedback', {}, 400],
    ['POST', '/releases/%zz/pull', '/releases/{version}/pull', {}, 400],
    ['GET', '/orders/cs_nothing', '/orders/{session}', {}, 404],
    ['GET', '/stats?days=7', '/stats', {}, 200],
    ['GET', '/audit', '/audit', {}, 200],
  ];
  for (const [method, sent, path, init, status] of cases) {
    const answer = await op.call(sent, { method, ...init });
    assert.is(answer.status, status, `${method} ${sent}`);
    matches(doc, path, method.toLowerCase(), status, answer.json());
  }
  const unauthorized = await op.call('/audit', { headers: { authorization: `Bearer ${OPERATOR_TOKEN.slice(1)}x` } });
  matches(doc, '/audit', 'get', unauthorized.status, unauthorized.json());
});

test.run();
