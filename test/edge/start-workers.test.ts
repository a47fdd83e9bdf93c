/**
 * `npm run start:workers` and the Worker it serves: the local front sets CF-Connecting-IP from the
 * socket whatever the client sends, memory storage is announced, TRUSTED_PROXIES is said to mean
 * nothing, the simulator ends on the Worker's own thanks page, and a Worker on a schema that is behind
 * refuses until it is migrated, then serves and runs its retention pass after the answer.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { LATEST_MIGRATION } from '../../adapters/sql/schema-version.ts';
import { startWorkerd } from '../../scripts/workerd.ts';
import { EXAMPLE_CONFIG } from '../../server/config.ts';
import { sendRequest } from '../_client.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { logLines } from '../_log-lines.ts';
import { startWorkersProgram } from '../_workers-program.ts';

test.after(() => closeTestDatabases());

test('without DATABASE_URL: memory storage is announced, TRUSTED_PROXIES is said to mean nothing, CF-Connecting-IP is the socket', async () => {
  const program = await startWorkersProgram({ DATABASE_URL: '', STORAGE: '', TRUSTED_PROXIES: '10.0.0.0/8' });
  try {
    const warnings = logLines(program.output()).filter((l) => l['level'] === 'warn').map((l) => l['message']);
    assert.ok(
      warnings.includes('no DATABASE_URL: the Worker uses memory storage, one per isolate; votes, feedback and licenses are lost on restart'),
      String(warnings),
    );
    assert.ok(warnings.some((m) => String(m).startsWith('TRUSTED_PROXIES has no meaning under workerd')), String(warnings));
    assert.is(program.listening['storage'], 'memory');
    assert.is(program.listening['runtime'], 'workerd');

    const remaining = async (from: string, claimed: string) =>
      (await sendRequest(program.url, { path: '/api/v1/version', from, headers: { 'cf-connecting-ip': claimed } })).headers['ratelimit-remaining'];
    assert.is(await remaining('127.0.0.7', '203.0.113.1'), '119');
    assert.is(await remaining('127.0.0.7', '203.0.113.2'), '118', 'a different claimed address is the same client');
    assert.is(await remaining('127.0.0.8', '127.0.0.7'), '119', "claiming another client's address does not spend its quota");
  } finally {
    assert.is(await program.stop(), 0);
  }
});

test("on the example config, the simulator returns the buyer to the Worker's own thanks page, which shows the keys", async () => {
  const program = await startWorkersProgram({ DATABASE_URL: '', STORAGE: '' });
  try {
    const created = await sendRequest(program.url, {
      method: 'POST',
      path: '/api/v1/checkout/create',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.is(created.status, 200, created.text);
    const { sessionId } = created.json() as { sessionId: string };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const paid = await sendRequest(program.url, {
      method: 'POST',
      path: `/checkout/simulator/${sessionId}/pay`,
      headers: form,
      body: 'email=ada%40example.com',
    });
    assert.equal([paid.status, paid.headers['location']], [303, `/checkout/thanks?session_id=${sessionId}`]);
    const page = await sendRequest(program.url, { path: paid.headers['location']! });
    assert.equal([page.status, page.headers['content-type']], [200, 'text/html; charset=utf-8']);
    const status = (await sendRequest(program.url, { path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { standardLicenseKey: string };
    assert.match(page.text, `<code id="standard-key">${status.standardLicenseKey}</code>`);
  } finally {
    assert.is(await program.stop(), 0);
  }
});

test('a Worker on a schema that is behind answers 500 and logs what to run, then serves once migrated and cleans up after the answer', async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  const worker = await startWorkerd({ configFile: EXAMPLE_CONFIG }, { PRODUCT_VERSION: '2.4.1', DATABASE_URL: pg.url, DATABASE_SCHEMA: schema });
  try {
    const refused = await sendRequest(worker.url, { path: '/api/v1/pricing', headers: { 'cf-connecting-ip': '203.0.113.30' } });
    assert.is(refused.status, 500);
    assert.is(refused.headers['ratelimit-remaining'], '119');
    assert.equal(refused.json(), {
      code: 'internal_error',
      message: 'The server failed to handle the request.',
      resolution: 'Retry later; if the problem persists, contact support.',
    });
    assert.match(worker.output(), `the database schema is at migration 0 and this code needs ${LATEST_MIGRATION}: run \`npm run migrate\``);

    const client = createPostgresClient({ url: pg.url, schema, connectTimeoutMs: 10_000 });
    try {
      await migrate(client);
      // What retention removes: a rate-limit window that ended, a session unpaid 8 days after it expired.
      await client.query(`insert into rate_limits (key, count, reset_at) values ('ip:192.0.2.99', 3, now() - interval '1 minute')`);
      await client.query(
        `insert into checkout_sessions (id, sku, channel, url, state, created_at, expires_at)
         values ('cs_old', 'standard', null, 'https://pay.test/cs_old', 'pending', now() - interval '9 days', now() - interval '8 days')`,
      );
      const served = await sendRequest(worker.url, { path: '/api/v1/pricing', headers: { 'cf-connecting-ip': '203.0.113.30' } });
      assert.is(served.status, 200, served.text);
      assert.is((served.json() as { licensePrice: string }).licensePrice, '49.00');
      // The isolate's first retention pass runs after that answer, through ctx.waitUntil.
      const left = async () =>
        (await client.query<{ n: number }>(
          `select (select count(*) from rate_limits where key = 'ip:192.0.2.99') + (select count(*) from checkout_sessions)::int as n`,
        ))[0]!.n;
      for (let tries = 0; tries < 50 && (await left()) > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.is(Number(await left()), 0, 'the ended window and the old unpaid session are gone');
    } finally {
      await client.close();
    }
  } finally {
    await worker.stop();
    await pg.dropSchema(schema);
  }
});

test.run();
