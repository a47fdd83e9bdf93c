/**
 * Bad request bodies, in process (app.handle) with every answer checked against /openapi.json: malformed
 * or mistyped JSON, invalid UTF-8, lone surrogates, unknown fields and other media types are 400 or 415
 * naming the mistake, nothing is stored, and the app keeps serving. Bodies too large and requests that are
 * no HTTP, as they arrive on a socket, are test/http/bad-input-wire.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { withValidation } from '../_openapi.ts';

const badInput = suite('bad input over HTTP');
let server: InProcessServer;
let client = 10;
const from = () => `127.0.1.${++client}`;
const INVALID = 'Fix the request body or query as the message says; /openapi.json describes every field.';

badInput.before.each(async () => {
  server = await withValidation(await startInProcessServer());
});
badInput.after.each(async () => {
  await server.close();
});

/** After any bad request, the server still answers a good one. */
async function assertStillServing(): Promise<void> {
  const ok = await server.request({ path: '/api/v1/version', from: from() });
  assert.is(ok.status, 200);
}

const post = (path: string, body: string | Buffer, contentType = 'application/json') =>
  server.request({ method: 'POST', path, headers: { 'content-type': contentType }, body, from: from() });

for (
  const [name, body, message] of [
    ['malformed JSON', '{"description": "x"', 'The body is not valid JSON.'],
    ['a JSON array', '[{"description":"x"}]', 'The body must be a JSON object.'],
    ['a JSON string', '"hello"', 'The body must be a JSON object.'],
    ['JSON null', 'null', 'The body must be a JSON object.'],
    ['an empty body', '', 'A JSON object body is required.'],
    ['wrong types', '{"description": ["x"]}', 'Field "description" must be a string.'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'The body is not valid UTF-8.'],
    [
      'an escaped lone surrogate',
      '{"description": "\\ud83d"}',
      'Field "description" must not contain control characters (other than tab, line feed and carriage return) or unpaired surrogates.',
    ],
  ] as const
) {
  badInput(`feedback with ${name}: 400 invalid_request, and the server keeps serving`, async () => {
    const result = await post('/api/v1/feedback', body);
    assert.is(result.status, 400);
    assert.equal(result.json(), { code: 'invalid_request', message, resolution: INVALID });
    assert.is(server.storage.feedback.length, 0);
    await assertStillServing();
  });
}

badInput('odd but valid unicode is stored exactly', async () => {
  const description = 'RTL \u202eabc\u202c, combining e\u0301, emoji 👩‍💻, CJK 表計算, zero-width \u200b';
  const result = await post('/api/v1/feedback', JSON.stringify({ description }));
  assert.is(result.status, 201);
  assert.is(server.storage.feedback[0]!.description, description);
});

badInput('unknown fields where the spec forbids them: 400 naming the field', async () => {
  const result = await post('/api/v1/roadmap', '{"featureId": 1, "__proto__": {"admin": true}}');
  assert.is(result.status, 400);
  assert.equal(result.json(), {
    code: 'invalid_request',
    message: 'Unknown field "__proto__": this request accepts only featureId.',
    resolution: INVALID,
  });
});

badInput('a body that is not JSON: 415 unsupported_media_type', async () => {
  const result = await post('/api/v1/feedback', 'description=hello', 'application/x-www-form-urlencoded');
  assert.is(result.status, 415);
  assert.equal(result.json(), {
    code: 'unsupported_media_type',
    message: 'The body must be sent as application/json, not "application/x-www-form-urlencoded".',
    resolution: 'Send the body as JSON with the header Content-Type: application/json.',
  });
});

badInput('a JSON body with charset parameter is accepted', async () => {
  const result = await post('/api/v1/feedback', '{"description":"x"}', 'application/json; charset=utf-8');
  assert.is(result.status, 201);
});

badInput.run();
