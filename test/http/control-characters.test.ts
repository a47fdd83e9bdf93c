/**
 * Control characters never reach a storage: every string that would be stored passes one rule
 * (`storableText` in core/schemas/stored-text.ts), so a NUL, another C0 control, DEL or a C1 control gets a 400 naming the field, on
 * memory, PGlite and Postgres alike, in process (app.handle); tab and line breaks are kept.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { closeTestDatabases } from '../_databases.ts';
import { type InProcessStorageServer, startInProcessStorageServer } from '../_storage-server.ts';
import { ALL_TARGETS } from '../storage/_targets.ts';

const RULE = 'must not contain control characters (other than tab, line feed and carriage return) or unpaired surrogates';
const invalid = (message: string) => ({
  code: 'invalid_request',
  message,
  resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
});

const feedback = (fields: Record<string, unknown>) => ({
  method: 'POST',
  path: '/api/v1/feedback',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ description: 'Works well', ...fields }),
});

for (const target of ALL_TARGETS) {
  const test = suite<{ server: InProcessStorageServer | null }>(`control characters on ${target.name}`, { server: null });
  test.before(async (context) => {
    context.server = await startInProcessStorageServer(target);
  });
  test.after(async (context) => {
    await context.server?.close();
  });

  for (const encoded of ['%00', 'cs_%01', '%1F', '%7F', '%C2%85', 'cs%00x']) {
    test(`${target.name}: session_id=${encoded} is refused with 400 naming session_id`, async ({ server }) => {
      const answer = await server!.request({ path: `/api/v1/checkout/status?session_id=${encoded}` });
      assert.is(answer.status, 400);
      assert.is(answer.headers['content-type'], 'application/json');
      assert.equal(answer.json(), invalid(`Query parameter "session_id" ${RULE}.`));
      assert.equal(server!.logger.lines.filter((line) => line.level === 'error'), []);
    });
  }

  test(`${target.name}: a session_id with a tab reaches the lookup (unknown_session)`, async ({ server }) => {
    const answer = await server!.request({ path: '/api/v1/checkout/status?session_id=cs%09x' });
    assert.is(answer.status, 400);
    assert.is((answer.json() as { code: string }).code, 'unknown_session');
  });

  for (
    const [field, value] of [
      ['description', 'a\u0000b'],
      ['description', 'bell \u0007'],
      ['description', 'escape \u001b[31m'],
      ['email', 'a\u0000@example.com'],
      ['appVersion', '2.4\u0000'],
      ['appVersion', '2.4\u0085'],
    ] as const
  ) {
    test(`${target.name}: feedback ${field} ${JSON.stringify(value)} is refused with 400 naming ${field}`, async ({ server }) => {
      const answer = await server!.request(feedback({ [field]: value }));
      assert.is(answer.status, 400);
      assert.equal(answer.json(), invalid(`Field "${field}" ${RULE}.`));
    });
  }

  test(`${target.name}: feedback keeps tabs and line breaks`, async ({ server }) => {
    const description = 'Steps:\r\n1.\topen the file\n2.\tconvert';
    const answer = await server!.request(feedback({ description }));
    assert.is(answer.status, 201);
    const stored = [];
    for await (const entry of server!.opened.storage.feedbackEntries()) stored.push(entry.description);
    assert.ok(stored.includes(description), 'stored as sent');
  });
  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
