/**
 * `converter-site-api orders` as an operator types it, against the operator listener of a server on a
 * real socket (the simulator takes the payments): find by email, show, revoke and reinstate with a
 * reason, upgrade, reconcile, as tables and as --json; --help, and the exit codes 1, 64 and 78.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN, type OperatorListener, startOperatorListener } from '../_operator.ts';
import { startTestServer, type TestServer } from '../_setup.ts';
import { runCommand } from '../_cli.ts';
import { runCli } from '../_spawn.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface Context {
  server: TestServer;
  operator: OperatorListener;
}

const test = suite<Context>('orders command', {} as Context);

test.before(async (context) => {
  context.server = await startTestServer({ operatorToken: OPERATOR_TOKEN });
  context.operator = await startOperatorListener(context.server.app);
});
test.after(async ({ server, operator }) => {
  await operator.close();
  await server.close();
});

/** `converter-site-api orders ...` with the operator API's variables unless told otherwise. */
const orders = (args: string[], env: Record<string, string>): Promise<Run> => runCommand(['orders', ...args], env);
/** The same as the program itself, a child process: for its help and exit codes. */
const program = (args: string[], env: Record<string, string>): Promise<Run> => runCli(['orders', ...args], env);

/** A standard order paid on the simulator by Grace, with its keys issued by a status read. */
async function paidOrder(server: TestServer): Promise<{ id: string; standardKey: string }> {
  const created = await server.request({ method: 'POST', path: '/api/v1/checkout/create' });
  const { sessionId } = created.json() as { sessionId: string };
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  await server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/pay`,
    headers: form,
    body: 'email=grace%40example.com&name=Grace+Hopper&country=US',
  });
  const status = (await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { standardLicenseKey: string };
  return { id: sessionId, standardKey: status.standardLicenseKey };
}

test('--help, and the exit codes of a usage mistake (64) and of missing variables (78)', async ({ operator }) => {
  const env = { OPERATOR_URL: operator.url, OPERATOR_TOKEN };
  const [help, none, noSession, both, wrongFlag, noUrl] = await Promise.all([
    program(['--help'], {}),
    program([], env),
    orders(['show'], env),
    orders(['find', '--email', 'a@b.c', '--session', 'cs_1'], env),
    orders(['upgrade', 'cs_1', '--reason', 'x'], env),
    program(['find'], { OPERATOR_TOKEN }),
  ]);
  assert.is(help.code, 0);
  assert.match(help.stdout, 'usage: converter-site-api orders <find|show|upgrade|revoke|reinstate|resend|failed-mails|retry-mail|reconcile|export> [options]');
  assert.equal([none.code, noSession.code, both.code, wrongFlag.code], [64, 64, 64, 64]);
  assert.match(noSession.stderr, 'converter-site-api orders: orders show needs a session id');
  assert.match(wrongFlag.stderr, '--reason is not an option of orders upgrade');
  assert.is(noUrl.code, 78);
  assert.match(noUrl.stderr, 'OPERATOR_URL is not set');
});

test('find by email as a table and as JSON; show; revoke and reinstate with a reason; upgrade; reconcile; a refusal exits 1', async ({ server, operator }) => {
  const env = { OPERATOR_URL: operator.url, OPERATOR_TOKEN };
  const { id, standardKey } = await paidOrder(server);
  const [table, json, shown, missing, pasted] = await Promise.all([
    orders(['find', '--email', 'GRACE@example.com'], env),
    orders(['find', '--email', 'grace@example.com', '--json'], env),
    orders(['show', id], env),
    orders(['show', 'cs_sim_nope'], env),
    orders(['find', '--email', ' grace@example.com\t'], env),
  ]);
  assert.is(pasted.stdout, table.stdout, 'an email pasted with spaces finds the same orders');
  assert.is(table.code, 0, table.stderr);
  const paidAt = new Date(server.clock.now()).toISOString();
  assert.equal(table.stdout.split('\n').map((line) => line.split(/ {2,}/)), [
    ['SESSION', 'PAID', 'PRODUCT', 'STATE', 'EMAIL', 'COUNTRY', 'LICENSES'],
    [id, paidAt, 'standard', 'paid', 'grace@example.com', 'US', 'valid'],
    [''],
  ]);
  assert.equal(JSON.parse(json.stdout), (await operator.call('/orders?email=grace%40example.com')).json());
  assert.match(shown.stdout, `buyer    Grace Hopper, grace@example.com, US\n`);
  assert.match(shown.stdout, `standard  valid  ${standardKey}`);
  assert.equal([missing.code, missing.stderr], [
    1,
    `converter-site-api orders: No checkout session has id "cs_sim_nope". (order_not_found; 404)\n${"Find the order with GET /orders?email=<the buyer's email> and use its session."}\n`,
  ]);

  const revoked = await orders(['revoke', id, '--reason', 'refunded by hand'], env);
  assert.is(revoked.code, 0, revoked.stderr);
  assert.match(revoked.stdout, `operator revoked at ${paidAt}: refunded by hand\nlicenses revoked (operator)\n`);
  assert.is(((await server.request({ path: `/api/v1/checkout/status?session_id=${id}` })).json() as { licenseKey: unknown }).licenseKey, null);
  assert.match((await orders(['reinstate', id], env)).stdout, 'licenses valid\n');
  const upgraded = await orders(['upgrade', id], env);
  assert.match(upgraded.stdout, /\nplus +valid +\S+/);
  const resent = await orders(['resend', id], env);
  assert.is(resent.code, 0, resent.stderr);
  assert.match(resent.stdout, /^queued mail \d+ \(resend\) to grace@example\.com: Your Legacy Sheet Converter license keys\n$/);
  const reconciled = await orders(['reconcile', '--since', '2026-01-01T00:00:00Z'], env);
  assert.is(
    reconciled.stdout,
    'checked 1 paid session(s) since 2026-01-01T00:00:00.000Z\nfulfilled now: 0\nalready fulfilled: 1\nnot created by this server: 0\n',
  );
});

test.run();
