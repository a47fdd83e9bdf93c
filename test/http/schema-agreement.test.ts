// deno-lint-ignore-file no-explicit-any -- the test walks parsed JSON documents of arbitrary shape
/**
 * What a schema-driven tester (Schemathesis) checks: every value /openapi.json allows is accepted, every
 * value it refuses is answered 400, for the feedback fields and the download source, in process (app.handle).
 * Valid email addresses are accepted and stored on memory, PGlite and Postgres.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { closeTestDatabases } from '../_databases.ts';
import { componentId, componentsAjv } from '../_openapi.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { type InProcessStorageServer, startInProcessStorageServer } from '../_storage-server.ts';
import { ALL_TARGETS } from '../storage/_targets.ts';

type Json = Record<string, any>;

const VALID_EMAILS = ["o'brien@example.com", 'a&b@example.com', 'user@example.xn--p1ai', '0@com', 'x+tag@sub.example.org', 'a.b@example.com'];

const feedback = (body: unknown) => ({
  method: 'POST',
  path: '/api/v1/feedback',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const agree = suite<{ server?: InProcessServer; document?: Json; ajv?: Ajv2020 }>('/openapi.json and the server agree', {});
agree.before(async (context) => {
  context.server = await startInProcessServer();
  context.document = (await context.server.request({ path: '/openapi.json' })).json() as Json;
  context.ajv = componentsAjv(context.document['components']['schemas']);
});
agree.after(async (context) => context.server?.close());

agree('feedback descriptions: the schema allows exactly what the server answers 201', async ({ server, ajv }) => {
  const schemaAllows = ajv!.getSchema(componentId('FeedbackRequest'))!;
  for (
    const description of [
      ' ',
      '\t',
      '\r\n',
      '\u00A0',
      '\u3000',
      '\uFEFF',
      ' \u2028 ',
      'a',
      ' a ',
      '\u00A0x',
      '\t\ud83d\ude00',
      'a\u0000',
      'x'.repeat(5000),
      'x'.repeat(5001),
    ]
  ) {
    const allowed = schemaAllows({ description });
    const answer = await server!.request(feedback({ description }));
    assert.is(answer.status, allowed ? 201 : 400, JSON.stringify(description));
    if (!allowed && description.trim() === '') {
      assert.is((answer.json() as { code: string }).code, 'description_required', JSON.stringify(description));
    }
  }
});

agree('a blank description is 400 description_required, as the schema says', async ({ server }) => {
  const answer = await server!.request(feedback({ description: ' ' }));
  assert.is(answer.status, 400);
  assert.equal(answer.json(), {
    code: 'description_required',
    message: 'Field "description" is required and must not be blank.',
    resolution: 'Send a non-empty "description" string in the JSON body.',
  });
});

agree('download source: the parameter schema allows exactly what the server redirects', async ({ server, document, ajv }) => {
  const parameters = document!['paths']['/api/v1/download']['get']['parameters'] as Json[];
  const schema = parameters.find((p) => p['name'] === 'source')!['schema'];
  const schemaAllows = ajv!.compile(schema);
  for (const source of ['', 'a', 'home-page_v2.1', 'x'.repeat(64), 'x'.repeat(65), 'a b', 'ü']) {
    const answer = await server!.request({ path: `/api/v1/download?source=${encodeURIComponent(source)}`, headers: { 'user-agent': 'Windows' } });
    assert.is(answer.status, schemaAllows(source) ? 302 : 400, JSON.stringify(source));
  }
  assert.ok(schemaAllows(''), 'an empty source is documented as allowed (it counts as absent)');
});

agree('emails: the addresses a tester generates from format "email" are accepted, a non-address is not', async ({ server, document }) => {
  assert.is(document!['components']['schemas']['FeedbackRequest']['properties']['email']['format'], 'email');
  for (const email of VALID_EMAILS) {
    const answer = await server!.request(feedback({ description: 'd', email }));
    assert.is(answer.status, 201, email);
  }
  for (const email of ['ann', 'ann@', '@example.com', 'a b@example.com', 'ann@-example.com']) {
    const answer = await server!.request(feedback({ description: 'd', email }));
    assert.equal(answer.json(), {
      code: 'invalid_request',
      message: 'Field "email" must be an email address.',
      resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
    }, email);
  }
});
agree.run();

for (const target of ALL_TARGETS) {
  const stored = suite<{ server?: InProcessStorageServer }>(`valid email addresses are stored on ${target.name}`, {});
  stored.before(async (context) => {
    context.server = await startInProcessStorageServer(target);
  });
  stored.after(async (context) => context.server?.close());
  stored(`${target.name}: each address is answered 201 and stored as sent`, async ({ server }) => {
    for (const email of VALID_EMAILS) {
      const answer = await server!.request(feedback({ description: 'works', email }));
      assert.is(answer.status, 201, email);
      assert.is(answer.text, '{"success":true}');
    }
    const emails = [];
    for await (const entry of server!.opened.storage.feedbackEntries()) emails.push(entry.email);
    assert.equal(emails.sort(), [...VALID_EMAILS].sort());
  });
  // Each storage's suite closes the test databases it opened (the next one opens them again).
  stored.after(closeTestDatabases);
  stored.run();
}
