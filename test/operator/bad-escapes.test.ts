/**
 * Malformed percent escapes and NUL characters in the operator API's paths, queries and bodies are 400s
 * with a JSON error naming the part, in process on memory and PGlite: `%00` in a search (or a NUL in a
 * roadmap title) reached PostgreSQL and answered 500, and `/releases/%zz` answered 404 as if it were a version.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import type { App } from '../../core/app.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { closeTestDatabases, pgliteSchema } from '../_databases.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, coreRequest, createTestApp, type TestApp } from '../_setup.ts';

const QUERY_RESOLUTION = 'Give each query parameter once, percent-encoded as UTF-8 without NUL characters; the operator /openapi.json lists them.';
const BODY_RESOLUTION = 'Fix the request body or query as the message says; /openapi.json describes every field.';
const PATH_RESOLUTION = 'Percent-encode the path parameter as UTF-8 (a version such as 2.6.0, a session id) without NUL characters.';

const TARGETS: Record<string, () => Promise<{ storage?: Storage; drop(): Promise<void> }>> = {
  memory: async () => ({ drop: async () => {} }),
  pglite: async () => {
    const { client, drop } = await pgliteSchema();
    await migrate(client);
    return { storage: createSqlStorage(client), drop };
  },
};

const ask = async (app: App, method: string, target: string) => {
  const [path = target, query = ''] = target.split('?');
  const response = await app.operator!.handle(
    coreRequest({
      method,
      path,
      query,
      clientIp: '127.0.0.1',
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      ...(method === 'POST' ? { json: {} } : {}),
    }),
  );
  return { status: response.status, type: response.headers['content-type'], body: bodyJson(response) };
};

for (const [name, open] of Object.entries(TARGETS)) {
  const test = suite<{ t: TestApp; drop(): Promise<void> }>(`bad escapes on ${name}`, {} as { t: TestApp; drop(): Promise<void> });
  test.before.each(async (context) => {
    const { storage, drop } = await open();
    context.t = await createTestApp({ operatorToken: OPERATOR_TOKEN, ...(storage ? { storage } : {}) });
    context.drop = drop;
  });
  test.after.each(async (context) => {
    await context.drop();
  });

  for (
    const [path, parameter] of [
      ['/feedback?search=%00', 'search'],
      ['/feedback?search=a%00b&handled=false', 'search'],
      ['/orders?email=ada%00%40example.com', 'email'],
      ['/orders?name=%00', 'name'],
      ['/orders?session=cs_%00', 'session'],
      ['/audit?target=2.5%00', 'target'],
      ['/feedback?search=%zz', 'search'],
      ['/feedback?search=%E0%A4%A', 'search'],
      ['/orders?name=%FF', 'name'],
      ['/audit?tar%zzget=x', 'tar%zzget'],
    ] as const
  ) {
    test(`GET ${path} is 400 invalid_query naming ${parameter}`, async ({ t }) => {
      const answer = await ask(t.app, 'GET', path);
      assert.equal(answer, {
        status: 400,
        type: 'application/json',
        body: {
          code: 'invalid_query',
          message: `Query parameter "${parameter}" has a malformed percent escape or a NUL character.`,
          resolution: QUERY_RESOLUTION,
        },
      });
      assert.equal(t.logger.lines.filter((line) => line.level === 'error'), []);
    });
  }

  for (
    const [method, path, parameter, shown] of [
      ['POST', '/releases/%zz/pull', 'version', '%zz'],
      ['POST', '/releases/%E0%A4%A/rollout', 'version', '%E0%A4%A'],
      ['POST', '/releases/2.5.0%00/restore', 'version', '2.5.0%00'],
      ['GET', '/orders/cs_%00', 'session', 'cs_%00'],
      ['POST', '/orders/cs_%FF/revoke', 'session', 'cs_%FF'],
    ] as const
  ) {
    test(`${method} ${path} is 400 invalid_path naming ${parameter}`, async ({ t }) => {
      const answer = await ask(t.app, method, path);
      assert.equal(answer, {
        status: 400,
        type: 'application/json',
        body: {
          code: 'invalid_path',
          message: `Path parameter "${parameter}" has a malformed percent escape or a NUL character: "${shown}".`,
          resolution: PATH_RESOLUTION,
        },
      });
    });
  }

  for (
    const [path, json, field] of [
      ['/roadmap', { title: 'a\u0000b', category: 'formats' }, 'title'],
      ['/webhooks', { url: 'http://127.0.0.1:9/\u0000' }, 'url'],
      ['/orders/reconcile', { since: '2026-11-01T00:00:00Z\u0000' }, 'since'],
    ] as const
  ) {
    test(`a NUL in the body of POST ${path} is 400 invalid_request naming ${field}`, async ({ t }) => {
      const response = await t.app.operator!.handle(
        coreRequest({ method: 'POST', path, clientIp: '127.0.0.1', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, json }),
      );
      assert.equal([response.status, bodyJson(response)], [400, {
        code: 'invalid_request',
        message: `Field "${field}" has a NUL character.`,
        resolution: BODY_RESOLUTION,
      }]);
      assert.equal(t.logger.lines.filter((line) => line.level === 'error'), []);
    });
  }

  test('well-formed escapes are read as before: an encoded search, a session, a version', async ({ t }) => {
    assert.equal((await ask(t.app, 'GET', '/feedback?search=caf%C3%A9+100%25')).body, { entries: [], next: null });
    assert.is((await ask(t.app, 'POST', '/releases/2%2E5%2E0/pull')).status, 404);
    assert.equal(((await ask(t.app, 'POST', '/releases/2%2E5%2E0/pull')).body as { message: string }).message, 'No release has version 2.5.0.');
  });

  test.run();
}

const last = suite('bad escapes: clean-up');
last('closes the test databases', closeTestDatabases);
last.run();
