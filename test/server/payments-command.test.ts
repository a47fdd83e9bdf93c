/**
 * `converter-site-api payments trigger` against a server on 127.0.0.1 whose payments are Stripe's (the
 * stand-in on loopback): signed test events, sent one run at a time in any order, end as the any-order
 * payment handling promises (docs/operating.md "Handle a refund"): a refund sent before its payment
 * leaves the order paid with its licenses revoked; a dispute opened and won before the payment leaves
 * them valid. A wrong secret is refused by the server and exits 1; --help, usage mistakes (64) and a
 * missing secret (78). The server's clock is the wall clock's time at start (the command signs with now).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isLoopbackUrl } from '../../server/cli/payments.ts';
import { OPERATOR_TOKEN, type OperatorListener, startOperatorListener } from '../_operator.ts';
import { startTestServer, type TestServer } from '../_setup.ts';
import { runCommand } from '../_cli.ts';
import { runCli } from '../_spawn.ts';
import { type StripeFixture, stripeFixture, WEBHOOK_SECRET } from '../stripe/_fixtures.ts';

interface Context {
  f: StripeFixture;
  server: TestServer;
  operator: OperatorListener;
}

const test = suite<Context>('payments trigger', {} as Context);

test.before(async (context) => {
  context.f = await stripeFixture();
  context.f.clock.set(Date.now());
  context.server = await startTestServer({ gateway: context.f.gateway, clock: context.f.clock, operatorToken: OPERATOR_TOKEN });
  context.operator = await startOperatorListener(context.server.app);
});
test.after(async ({ f, server, operator }) => {
  await operator.close();
  await server.close();
  await f.close();
});

const trigger = (server: TestServer, args: string[], secret = WEBHOOK_SECRET) =>
  runCommand(['payments', 'trigger', ...args, '--base-url', `http://127.0.0.1:${server.port}`], { STRIPE_WEBHOOK_SECRET: secret });

const create = async (server: TestServer): Promise<string> => {
  const created = await server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: '{"product":"standard"}',
  });
  return (created.json() as { sessionId: string }).sessionId;
};

const orderOf = async (operator: OperatorListener, id: string) =>
  (await operator.call(`/orders/${id}`)).json() as {
    buyer: { email: string };
    amount: string;
    currency: string;
    paymentRef: string;
    licenses: string;
    revokedBecause: string | null;
  };

const publicStatus = async (server: TestServer, id: string) => (await server.request({ path: `/api/v1/checkout/status?session_id=${id}` })).json();

test('a refund sent before its payment: the order is paid, its licenses revoked; the status shows no key', async ({ server, operator }) => {
  const id = await create(server);
  const refund = await trigger(server, ['refund', '--session', id]);
  assert.is(refund.code, 0, refund.stderr);
  const [header, row, ...rest] = refund.stdout.trimEnd().split('\n').map((line) => line.split(/ {2,}/));
  assert.equal([header, rest], [['EVENT', 'TYPE', 'ID', 'STATUS', 'ANSWER'], []]);
  assert.equal([row![0], row![1], row![3], row![4]], ['refund', 'charge.refunded', '200', '{"received":true}']);
  assert.match(row![2]!, /^evt_test_[0-9a-f]{32}$/);
  const paid = await trigger(server, ['payment-completed', '--session', id, '--email', 'ada@example.com', '--json']);
  assert.is(paid.code, 0, paid.stderr);
  const [sent] = JSON.parse(paid.stdout) as { event: string; type: string; status: number; answer: unknown }[];
  assert.equal([sent?.event, sent?.type, sent?.status, sent?.answer], ['payment-completed', 'checkout.session.completed', 200, { received: true }]);
  const order = await orderOf(operator, id);
  assert.equal([order.buyer.email, order.amount, order.currency, order.licenses, order.revokedBecause], [
    'ada@example.com',
    '49.00',
    'USD',
    'revoked',
    'refund',
  ]);
  assert.match(order.paymentRef, /^pi_test_[0-9a-f]{24}$/);
  assert.equal(await publicStatus(server, id), { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
});

test('a dispute opened and won, then the payment, in one run: the licenses stand, also when the opening comes again', async ({ server, operator }) => {
  const id = await create(server);
  const run = await trigger(server, ['dispute-opened', 'dispute-won', 'payment-completed', '--session', id, '--json']);
  assert.is(run.code, 0, run.stderr);
  assert.equal((JSON.parse(run.stdout) as { type: string; status: number }[]).map((s) => [s.type, s.status]), [
    ['charge.dispute.created', 200],
    ['charge.dispute.closed', 200],
    ['checkout.session.completed', 200],
  ]);
  const order = await orderOf(operator, id);
  assert.equal([order.licenses, order.revokedBecause], ['valid', null]);
  assert.is((await publicStatus(server, id) as { status: string }).status, 'paid');
  const opened = await trigger(server, ['dispute-opened', '--session', id]);
  assert.is(opened.code, 0, opened.stderr);
  assert.equal(
    [(await orderOf(operator, id)).licenses, (await orderOf(operator, id)).revokedBecause],
    ['valid', null],
    'the same dispute, opened again after it was won, stays won',
  );
});

test('signed with another secret: the server refuses it (400 invalid_signature), the command exits 1 and says so', async ({ server }) => {
  const id = await create(server);
  const run = await trigger(server, ['refund', 'payment-completed', '--session', id], 'whsec_notTheServersSecret0000');
  assert.is(run.code, 1);
  assert.match(run.stderr, /^refund \(charge\.refunded evt_test_[0-9a-f]{32}\) was refused: 400 invalid_signature /);
  assert.is(run.stdout.trimEnd().split('\n').length, 2, 'the refund only: the run stops at the first refusal');
  assert.equal(await publicStatus(server, id), { status: 'pending', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
});

test('--help; usage mistakes exit 64, a missing or wrong secret 78, a server that does not answer 1', async ({ server }) => {
  const port = `http://127.0.0.1:${server.port}`;
  const [help, none, unknown, noSession, badAmount, noSecret, apiKey, down] = await Promise.all([
    runCli(['payments', '--help'], {}),
    runCommand(['payments', 'trigger', '--session', 'cs_1'], { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }),
    runCommand(['payments', 'trigger', 'refunded', '--session', 'cs_1'], { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }),
    runCommand(['payments', 'trigger', 'refund', '--base-url', port], { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }),
    runCommand(['payments', 'trigger', 'refund', '--session', 'cs_1', '--amount', '49.00'], { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }),
    // The program itself, a child process: its exit code and stderr as a user sees them.
    runCli(['payments', 'trigger', 'refund', '--session', 'cs_1', '--base-url', port], {}),
    runCommand(['payments', 'trigger', 'refund', '--session', 'cs_1', '--base-url', port], { STRIPE_WEBHOOK_SECRET: 'sk_test_123' }),
    runCommand(['payments', 'trigger', 'refund', '--session', 'cs_1', '--base-url', 'http://127.0.0.1:9'], { STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }),
  ]);
  assert.is(help.code, 0);
  assert.match(help.stdout, 'usage: converter-site-api payments trigger <event>... --session <id> [options]');
  assert.match(help.stdout, '  refund              charge.refunded\n');
  assert.equal([none.code, unknown.code, noSession.code, badAmount.code], [64, 64, 64, 64]);
  assert.match(none.stderr, 'name the events to send: payment-completed, refund, dispute-opened, dispute-won');
  assert.match(unknown.stderr, 'unknown event "refunded"');
  assert.match(noSession.stderr, '--session is needed');
  assert.match(badAmount.stderr, '--amount must be a whole number of cents, not "49.00"');
  assert.equal([noSecret.code, apiKey.code], [78, 78]);
  assert.match(noSecret.stderr, 'converter-site-api payments: configuration error: STRIPE_WEBHOOK_SECRET is not set');
  assert.match(apiKey.stderr, 'STRIPE_WEBHOOK_SECRET must be the endpoint signing secret (whsec_...)');
  assert.is(down.code, 1);
  assert.match(down.stderr, 'http://127.0.0.1:9/api/v1/webhooks/gateway did not answer');
});

test('only this machine unless --allow-remote (the check alone: nothing is sent elsewhere)', () => {
  for (const url of ['http://127.0.0.1:8080', 'http://127.8.0.1', 'http://[::1]:8080', 'http://localhost:8080', 'http://app.localhost']) {
    assert.ok(isLoopbackUrl(new URL(url)), url);
  }
  for (const url of ['https://shop.example.com', 'http://10.0.0.5:8080', 'http://[::ffff:a00:1]', 'http://0.0.0.0:8080']) {
    assert.not.ok(isLoopbackUrl(new URL(url)), url);
  }
});

test.run();
