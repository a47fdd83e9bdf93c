/**
 * Orders with Stripe played by the stand-in (the gateway calls it over a real socket; the app answers in
 * process, app.handle), on memory, PGlite and Postgres: the buyer kept at fulfilment (by notification or
 * by polling) and found through the operator API but never on the public status; refunds and disputes
 * delivered in every order revoke or reinstate the same way; and `orders reconcile` fulfilling what no
 * notification told.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { closeTestDatabases } from '../_databases.ts';
import { withValidation } from '../_openapi.ts';
import { inProcessOperatorListener, type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { pgliteTarget, postgresTarget } from '../storage/_targets.ts';
import { type StripeFixture, stripeFixture, WEBHOOK_SECRET } from './_fixtures.ts';
import { publicKeyOf } from '../../core/licensing/license.ts';
import { licenseRefusal } from '../_update-signature.ts';

const STORAGES: { name: string; open: (f: StripeFixture) => Promise<{ storage: Storage; close(): Promise<void> }> }[] = [
  { name: 'memory', open: async (f) => ({ storage: createMemoryStorage({ clock: f.clock }), close: async () => {} }) },
  { name: 'pglite', open: () => pgliteTarget.open() },
  { name: 'postgres', open: () => postgresTarget.open() },
];

interface Context {
  /** Requests sent to the public port: every 100 come from a new address, under the rate limit. */
  sent: number;
  f: StripeFixture;
  /** The storage the server runs on. */
  storage: Storage;
  server: InProcessServer;
  operator: ReturnType<typeof inProcessOperatorListener>;
  close(): Promise<void>;
}

type ChargeEvent = 'refund' | 'partial refund' | 'dispute' | 'dispute won' | 'dispute lost';
const BUYER = { email: 'Ada@Example.com', name: 'Ada Lovelace', country: 'GB' };

/** Every ordering of a list. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

interface OrderBody {
  session: string;
  buyer: { email: string; name: string; country: string };
  paymentRef: string;
  licenses: string;
  revokedBecause: string | null;
  keys: { product: string; state: string }[];
}

for (const { name, open } of STORAGES) {
  const test = suite<Context>(`orders with Stripe on ${name} storage`, {} as Context);

  test.before.each(async (context) => {
    context.sent = 0;
    context.f = await stripeFixture();
    const opened = await open(context.f);
    context.storage = opened.storage;
    const server = await startInProcessServer({ gateway: context.f.gateway, clock: context.f.clock, storage: opened.storage, operatorToken: OPERATOR_TOKEN });
    context.server = await withValidation(server);
    context.operator = inProcessOperatorListener(server.app);
    context.close = async () => {
      await context.operator.close();
      await server.close();
      await opened.close();
      await context.f.close();
    };
  });
  test.after.each((context) => context.close());

  const from = (context: Context) => `127.0.0.${10 + Math.floor(context.sent++ / 100)}`;
  const create = async (context: Context, product = 'standard'): Promise<string> => {
    const init = { method: 'POST', path: '/api/v1/checkout/create', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ product }) };
    return ((await context.server.request({ ...init, from: from(context) })).json() as { sessionId: string }).sessionId;
  };
  const status = async (context: Context, id: string) =>
    (await context.server.request({ path: `/api/v1/checkout/status?session_id=${id}`, from: from(context) })).json() as Record<string, unknown>;
  const deliver = async (context: Context, body: string) => {
    const { f, server } = context;
    const answer = await server.request({
      from: from(context),
      method: 'POST',
      path: '/api/v1/webhooks/gateway',
      headers: { 'content-type': 'application/json', 'stripe-signature': f.stripe.sign(body, WEBHOOK_SECRET, Math.floor(f.clock.now() / 1000)) },
      body,
    });
    assert.equal([answer.status, answer.json()], [200, { received: true }]);
  };
  /** A session paid by card and fulfilled by its notification. */
  const paid = async (context: Context): Promise<string> => {
    const id = await create(context);
    context.f.stripe.pay(id, BUYER);
    await deliver(context, context.f.stripe.event('checkout.session.completed', id));
    return id;
  };
  const send = (context: Context, id: string, event: ChargeEvent) => {
    const { stripe } = context.f;
    if (event === 'refund') return deliver(context, stripe.chargeEvent('charge.refunded', id));
    if (event === 'partial refund') return deliver(context, stripe.chargeEvent('charge.refunded', id, { amountRefunded: 100 }));
    if (event === 'dispute') return deliver(context, stripe.chargeEvent('charge.dispute.created', id));
    return deliver(context, stripe.chargeEvent('charge.dispute.closed', id, { status: event === 'dispute won' ? 'won' : 'lost' }));
  };
  const order = async ({ operator }: Context, id: string) => (await operator.call(`/orders/${id}`)).json() as OrderBody;

  test('the buyer is kept at fulfilment and found by email, any case; the public status keeps its four fields', async (context) => {
    const id = await paid(context);
    const shown = await status(context, id);
    assert.equal(Object.keys(shown), ['status', 'licenseKey', 'standardLicenseKey', 'plusLicenseKey']);
    assert.is(shown['status'], 'paid');
    const found = await context.operator.call('/orders?email=ada%40example.COM');
    assert.is(found.status, 200);
    const [first, ...rest] = (found.json() as { orders: OrderBody[] }).orders;
    assert.is(rest.length, 0);
    assert.equal([first?.session, first?.buyer, first?.licenses], [id, { email: 'Ada@Example.com', name: 'Ada Lovelace', country: 'GB' }, 'valid']);
    assert.is(first?.paymentRef, context.f.stripe.session(id)['payment_intent'] as string);
    assert.equal(first?.keys.map((k) => [k.product, k.state]), [['standard', 'valid']]);
  });

  test('a refund delivered by Stripe makes POST /licenses/validate answer revoked, signed for that key; before it, valid with a lease', async (context) => {
    const id = await paid(context);
    const key = (await status(context, id))['licenseKey'] as string;
    const publicKey = await publicKeyOf(await context.storage.secret('license-signing-key', () => 'unused'));
    const validate = async () => {
      const answer = await context.server.request({
        method: 'POST',
        path: '/api/v1/licenses/validate',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ licenseKey: key }),
        from: from(context),
      });
      const headers = Object.fromEntries(Object.entries(answer.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
      assert.is(licenseRefusal({ status: answer.status, headers, body: answer.text }, publicKey, Math.floor(context.f.clock.now() / 1000), key), null);
      return answer.json();
    };
    const lease = new Date(context.f.clock.now() - (context.f.clock.now() % 1000) + 14 * 86_400_000).toISOString().replace('.000Z', 'Z');
    assert.equal(await validate(), { standing: 'valid', product: 'standard', validUntil: lease });
    await send(context, id, 'refund');
    assert.equal(await validate(), { standing: 'revoked', product: null, validUntil: null });
  });

  test('a session paid by polling alone keeps its buyer too', async (context) => {
    const id = await create(context);
    context.f.stripe.pay(id, BUYER);
    context.f.clock.advance(5000);
    assert.is((await status(context, id))['status'], 'paid');
    assert.equal((await order(context, id)).buyer, BUYER);
  });

  test('refunds and disputes in every order of delivery, repeats included, end the same', async (context) => {
    const sets: [ChargeEvent[], boolean][] = [
      [['refund'], true],
      [['partial refund'], false],
      [['dispute'], true],
      [['dispute', 'dispute won'], false],
      [['dispute won'], false],
      [['dispute', 'dispute lost'], true],
      [['refund', 'dispute', 'dispute won'], true],
    ];
    for (const [set, revoked] of sets) {
      for (const sequence of permutations(set)) {
        const id = await paid(context);
        const keys = await status(context, id);
        for (const event of [...sequence, sequence[0]!]) await send(context, id, event);
        const label = `${sequence.join(', ')} then ${sequence[0]} again`;
        const shown = await status(context, id);
        if (revoked) assert.equal(shown, { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null }, label);
        else assert.equal(shown, keys, label);
        const seen = await order(context, id);
        assert.is(seen.licenses, revoked ? 'revoked' : 'valid', label);
        assert.is(seen.revokedBecause, revoked ? (set.includes('refund') ? 'refund' : 'dispute') : null, label);
      }
    }
    const audit = (await context.operator.call('/audit')).json() as { entries: { action: string; target: string }[] };
    assert.ok(
      audit.entries.some((e) => e.action === 'order.refunded' && / licenses revoked \(charge\.refunded evt_/.test(e.target)),
      'a revocation is in the audit trail',
    );
  });

  test('completed, refund, dispute created and dispute closed in every order end the same, polled or reconciled', async (context) => {
    const { f, operator } = context;
    type Step = 'completed' | 'refund' | 'dispute' | 'dispute won';
    const deliverStep = (id: string, step: Step) =>
      step === 'completed' ? deliver(context, f.stripe.event('checkout.session.completed', id)) : send(context, id, step);
    const revokedStatus = { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null };
    for (
      const [set, revoked] of [
        [['completed', 'refund', 'dispute', 'dispute won'], true],
        [['completed', 'dispute', 'dispute won'], false],
      ] as const
    ) {
      for (const sequence of permutations<Step>(set)) {
        const id = await create(context);
        f.stripe.pay(id, BUYER);
        for (const step of sequence) await deliverStep(id, step);
        const label = sequence.join(', ');
        const reconciled = (await operator.call('/orders/reconcile', { method: 'POST' })).json() as { fulfilled: string[] };
        assert.equal(reconciled.fulfilled, [], label);
        const shown = await status(context, id);
        if (revoked) assert.equal(shown, revokedStatus, label);
        else assert.type(shown['licenseKey'], 'string', label);
        const seen = await order(context, id);
        assert.equal([seen.licenses, seen.revokedBecause], revoked ? ['revoked', 'refund'] : ['valid', null], label);
      }
    }
  });

  test('a refund before any word of the payment is kept: the poll and reconcile that fulfil the session show no key', async (context) => {
    const { f, operator } = context;
    const polled = await create(context);
    f.stripe.pay(polled, BUYER);
    await send(context, polled, 'refund');
    assert.equal(await status(context, polled), { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
    const reconciledOne = await create(context);
    f.stripe.pay(reconciledOne, BUYER);
    await send(context, reconciledOne, 'dispute');
    const reconciled = (await operator.call('/orders/reconcile', { method: 'POST' })).json() as { fulfilled: string[] };
    assert.equal(reconciled.fulfilled, [reconciledOne]);
    assert.equal([(await order(context, reconciledOne)).licenses, (await order(context, reconciledOne)).revokedBecause], ['revoked', 'dispute']);
    assert.equal([(await order(context, polled)).licenses, (await order(context, polled)).revokedBecause], ['revoked', 'refund']);
  });

  test('a new dispute after a won one revokes again; its own events in any order still end won', async (context) => {
    const id = await paid(context);
    const keys = await status(context, id);
    const dispute = (type: 'charge.dispute.created' | 'charge.dispute.closed', disputeId: string, status?: string) =>
      deliver(context, context.f.stripe.chargeEvent(type, id, { disputeId, ...(status ? { status } : {}) }));
    await dispute('charge.dispute.closed', 'dp_first', 'won');
    await dispute('charge.dispute.created', 'dp_first');
    assert.equal(await status(context, id), keys, 'a late created event of a won dispute changes nothing');
    await dispute('charge.dispute.created', 'dp_second');
    assert.equal(await status(context, id), { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
    assert.equal((await order(context, id)).revokedBecause, 'dispute');
    await dispute('charge.dispute.closed', 'dp_second', 'won');
    assert.equal(await status(context, id), keys);
  });

  test('a dispute won reinstates the keys the status showed; an event for a payment this server never saw is acknowledged and kept', async (context) => {
    const id = await paid(context);
    const keys = await status(context, id);
    await send(context, id, 'dispute');
    assert.is((await status(context, id))['licenseKey'], null);
    await send(context, id, 'dispute won');
    assert.equal(await status(context, id), keys);
    const stranger = await create(context);
    context.f.stripe.pay(stranger);
    await deliver(context, context.f.stripe.chargeEvent('charge.refunded', stranger));
    assert.ok(context.server.logger.lines.some((l) => l.message === 'payment event kept until its payment is known here'));
    await send(context, id, 'partial refund');
    const partial = context.server.logger.lines.at(-1);
    assert.equal([partial?.message, partial?.fields?.['type']], ['gateway notification with nothing to do', 'charge.refunded']);
  });

  test('orders reconcile fulfils the sessions paid at Stripe that no notification or poll told of, once', async (context) => {
    const { f, operator } = context;
    const missed = await create(context);
    await paid(context);
    f.stripe.pay(missed, { email: 'late@example.com', name: 'Late Buyer', country: 'DE' });
    const other = (await f.gateway.createCheckout({ sku: 'standard', channel: null })).sessionId;
    f.stripe.pay(other);
    const first = await operator.call('/orders/reconcile', { method: 'POST' });
    assert.is(first.status, 200, first.text);
    assert.equal(first.json(), {
      since: new Date(f.clock.now() - 7 * 86_400_000).toISOString(),
      checked: 3,
      fulfilled: [missed],
      alreadyFulfilled: 1,
      unknown: 1,
      complete: true,
    });
    const reconciled = await order(context, missed);
    assert.equal([reconciled.licenses, reconciled.buyer.email], ['valid', 'late@example.com']);
    const again = (await operator.call('/orders/reconcile', { method: 'POST', json: { since: '2026-01-01T00:00:00Z' } })).json() as {
      fulfilled: string[];
      alreadyFulfilled: number;
    };
    assert.equal([again.fulfilled, again.alreadyFulfilled], [[], 2]);
    const list = f.stripe.requests.filter((r) => r.method === 'GET' && r.path === '/v1/checkout/sessions');
    assert.equal(list.at(-1)?.query.get('created[gte]'), String(Date.parse('2026-01-01T00:00:00Z') / 1000));
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
