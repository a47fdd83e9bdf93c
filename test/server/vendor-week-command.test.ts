/**
 * The commands of what a vendor looked for (issue 33), as an operator types them against the operator listener:
 * `orders find --key/--name`, `orders export` (CSV to stdout or a file), `feedback list --search`,
 * `feedback handle <id> <id>...` and `feedback handle --all`; their usage mistakes (64). The program runs
 * in process (test/_cli.ts) and its operator API calls are answered by the app in process (the fetch
 * binding); orders-command.test.ts and operator-program.test.ts run the program and its listener for real.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand } from '../_cli.ts';
import { inProcessOperatorListener, type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { exampleContent } from '../_setup.ts';

/** Where the commands find the operator API: answered in process (`run`), never on the network. */
const OPERATOR_URL = 'http://operator.test';

interface Context {
  server: InProcessServer;
  operator: ReturnType<typeof inProcessOperatorListener>;
  env: Record<string, string>;
}

const test = suite<Context>("the commands of a vendor's week", {} as Context);

test.before.each(async (context) => {
  context.server = await startInProcessServer({ operatorToken: OPERATOR_TOKEN, simulator: { offer: exampleContent().offer } });
  context.operator = inProcessOperatorListener(context.server.app);
  context.env = { OPERATOR_URL, OPERATOR_TOKEN };
});
test.after.each(async ({ server, operator }) => {
  await operator.close();
  await server.close();
});

/** `converter-site-api <args...>` in process, its operator API calls answered by `server`'s app. */
const run = (server: InProcessServer, args: string[], env: Record<string, string>) => runCommand(args, env, { [OPERATOR_URL]: server.app.operator! });

/** A standard order paid on the simulator by `name`, with its keys issued by a status read. */
async function paid(server: InProcessServer, name: string): Promise<{ id: string; key: string }> {
  const created = await server.request({ method: 'POST', path: '/api/v1/checkout/create' });
  const { sessionId } = created.json() as { sessionId: string };
  const body = new URLSearchParams({ email: 'ada@example.com', name, country: 'GB' }).toString();
  await server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const status = (await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { standardLicenseKey: string };
  return { id: sessionId, key: status.standardLicenseKey };
}

test('orders find --key (as pasted) and --name (part, any case); one way of finding at a time', async ({ server, env }) => {
  const ada = await paid(server, 'Ada Lovelace');
  server.clock.advance(1000);
  const other = await paid(server, 'Someone Else');
  const [byKey, byName, keyJson, both] = await Promise.all([
    run(server, ['orders', 'find', '--key', `  ${ada.key.slice(0, 20)}\n${ada.key.slice(20)}\n`], env),
    run(server, ['orders', 'find', '--name', 'LOVELACE'], env),
    run(server, ['orders', 'find', '--key', ada.key, '--json'], env),
    run(server, ['orders', 'find', '--key', ada.key, '--session', ada.id], env),
  ]);
  assert.is(byKey.code, 0, byKey.stderr);
  assert.equal(byKey.stdout.split('\n').slice(1, -1).map((line) => line.split(/\s+/)[0]), [ada.id]);
  assert.equal(byName.stdout.split('\n').slice(1, -1).map((line) => line.split(/\s+/)[0]), [ada.id]);
  assert.not.match(byName.stdout, other.id);
  assert.is((JSON.parse(keyJson.stdout) as { orders: { amount: string }[] }).orders[0]?.amount, '49.00');
  assert.equal([both.code, both.stderr], [
    64,
    'converter-site-api orders: give --email and --name, --session, or --key: one of them\nRun `converter-site-api orders --help` for usage.\n',
  ]);
  const shown = await run(server, ['orders', 'show', ada.id], env);
  assert.match(shown.stdout, 'amount   49.00 USD\n');
});

test('orders export: the CSV to stdout, or to a file; a bad --since exits 1; --json is a usage mistake', async ({ server, env }) => {
  const first = await paid(server, '@SUM(A1)');
  const paidAt = new Date(server.clock.now()).toISOString();
  const expected =
    `sessionId,paidAt,email,name,sku,amount,currency,state,refundedAmount\r\n${first.id},${paidAt},ada@example.com,'@SUM(A1),standard,49.00,USD,paid,0.00\r\n`;
  const dir = mkdtempSync(join(tmpdir(), 'orders-export-'));
  try {
    const out = join(dir, 'orders.csv');
    const [piped, toFile, later, bad, asJson] = await Promise.all([
      run(server, ['orders', 'export'], env),
      run(server, ['orders', 'export', '--out', out], env),
      run(server, ['orders', 'export', '--since', new Date(server.clock.now() + 1).toISOString()], env),
      run(server, ['orders', 'export', '--since', 'last week'], env),
      run(server, ['orders', 'export', '--json'], env),
    ]);
    assert.equal([piped.code, piped.stdout], [0, expected]);
    assert.equal([toFile.code, toFile.stdout, readFileSync(out, 'utf8')], [0, '', expected]);
    assert.equal([later.code, later.stdout], [0, 'sessionId,paidAt,email,name,sku,amount,currency,state,refundedAmount\r\n']);
    assert.equal([bad.code, bad.stderr], [
      1,
      'converter-site-api orders: Field "since" must be an ISO 8601 timestamp such as 2026-11-01T00:00:00Z. (invalid_request; 400)\nFix the request body or query as the message says; /openapi.json describes every field.\n',
    ]);
    assert.equal([asJson.code, asJson.stderr], [
      64,
      'converter-site-api orders: orders export writes CSV: no --json\nRun `converter-site-api orders --help` for usage.\n',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('feedback list --search; handle several ids in one bulk mark; handle --all with the list filters', async ({ server, env, operator }) => {
  for (const description of ['Crash on open', 'Fine tool', 'crash on save', 'Slow']) {
    await server.storage.intake.addFeedback({ type: 'bug_report', description, email: null, appVersion: null, rating: null, receivedAt: server.clock.now() });
  }
  const listed = await run(server, ['feedback', 'list', '--search', 'CRASH'], env);
  assert.equal(listed.stdout.split('\n').slice(1, -1).map((line) => line.split(/\s+/)[0]), ['3', '1']);
  const several = await run(server, ['feedback', 'handle', '3', '2', '3'], env);
  assert.equal([several.code, several.stdout], [0, 'marked 2 handled: 2, 3; 0 handled already, 0 not found\n']);
  const all = await run(server, ['feedback', 'handle', '--all', '--search', 'crash', '--json'], env);
  assert.equal([all.code, JSON.parse(all.stdout)], [0, { marked: [1], alreadyHandled: 0, notFound: 0 }]);
  const none = await run(server, ['feedback', 'handle', '--all', '--search', 'crash'], env);
  assert.equal([none.code, none.stdout], [0, 'no entry to mark\n']);
  const audit = (await operator.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => `${e.action} ${e.target}`), [
    'feedback.handled_bulk 1 entry (of 1 listed)',
    'feedback.handled_bulk 2 entries (of 2 listed)',
  ]);
  const [unhandleMany, allAndIds, allUnhandle, withHandled] = await Promise.all([
    run(server, ['feedback', 'unhandle', '1', '2'], env),
    run(server, ['feedback', 'handle', '--all', '4'], env),
    run(server, ['feedback', 'unhandle', '--all'], env),
    run(server, ['feedback', 'handle', '--all', '--handled', 'true'], env),
  ]);
  assert.equal([unhandleMany.code, unhandleMany.stderr], [
    64,
    'converter-site-api feedback: feedback unhandle takes one entry id\nRun `converter-site-api feedback --help` for usage.\n',
  ]);
  assert.equal([allAndIds.code, allAndIds.stderr], [
    64,
    'converter-site-api feedback: give entry ids or --all, not both\nRun `converter-site-api feedback --help` for usage.\n',
  ]);
  assert.equal([allUnhandle.code, allUnhandle.stderr], [
    64,
    'converter-site-api feedback: --all is an option of feedback handle only\nRun `converter-site-api feedback --help` for usage.\n',
  ]);
  assert.is(withHandled.code, 64);
});

test.run();
