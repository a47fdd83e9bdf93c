/**
 * Contract: orders. What the provider said of a buyer kept once per field, paid orders found by email
 * (exact, any case) newest first, payments mapped to sessions, refund and dispute flags whose standing
 * is the same in every order of delivery, the operator's override, a Plus key added once, and the update
 * window each key was sold with.
 */
import * as assert from './assert.ts';
import { GOOD_STANDING, isRevoked, type OrderStanding } from '../../core/ports/order-state.ts';
import { type CheckoutSession, LIFETIME_KEYS, type PaymentFlag } from '../../core/ports/ports.ts';
import { type ContractSuite, current } from './context.ts';

const T = Date.UTC(2026, 10, 21, 12, 0, 0, 0);

const session = (id: string, state: CheckoutSession['state'] = 'paid', createdAt = T): CheckoutSession => ({
  id,
  sku: 'standard',
  channel: null,
  url: `https://pay.example.com/c/${id}`,
  state,
  createdAt,
  expiresAt: createdAt + 86_400_000,
});

const buyer = (email: string, paymentRef: string) => ({ email, name: 'Ada Lovelace', country: 'GB', paymentRef, amount: null, currency: null });

/** Every ordering of a list. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

export function ordersContract(test: ContractSuite): void {
  test('the purchase is kept with the session, first word per field; the fulfilment time once; the public session is unchanged', async (context) => {
    const { storage } = current(context);
    await storage.checkouts.createCheckout(session('cs_o1'));
    await storage.orders.recordPurchase(
      'cs_o1',
      { email: 'Ada@Example.com', name: null, country: 'GB', paymentRef: 'pi_1', amount: null, currency: null },
      T + 5000,
    );
    await storage.orders.recordPurchase('cs_o1', {
      email: 'other@example.com',
      name: 'Ada',
      country: 'FR',
      paymentRef: 'pi_2',
      amount: '49.00',
      currency: 'USD',
    }, T + 9000);
    await storage.orders.recordPurchase('cs_o1', { ...buyer('x@example.com', 'pi_3'), amount: '1.00', currency: 'EUR' }, T + 9000);
    await storage.orders.recordPurchase('cs_missing', buyer('x@example.com', 'pi_x'), T);
    const order = await storage.orders.get('cs_o1');
    assert.equal(order, {
      session: session('cs_o1'),
      purchase: { email: 'Ada@Example.com', name: 'Ada', country: 'GB', paymentRef: 'pi_1', amount: '49.00', currency: 'USD' },
      paidAt: T + 5000,
      keys: null,
      windows: LIFETIME_KEYS,
      standing: GOOD_STANDING,
    }, 'the purchase is kept with the session, the first word per field, the fulfilment time once: get()');
    assert.equal(await storage.checkouts.getCheckout('cs_o1'), session('cs_o1'), 'the buyer is not part of the session the public API reads');
    assert.is(await storage.orders.get('cs_missing'), null, 'an unknown session has no order: get()');
    await storage.checkouts.saveLicenses('cs_o1', { standard: 'key/s', plus: null });
    assert.equal((await storage.orders.get('cs_o1'))?.keys, { standard: 'key/s', plus: null }, "an order holds its session's keys: get().keys");
  });

  test('find lists paid orders newest first, by email exactly but for case, or one session whatever its state', async (context) => {
    const { storage } = current(context);
    await storage.checkouts.createCheckout(session('cs_a', 'paid', T));
    await storage.checkouts.createCheckout(session('cs_b', 'paid', T + 1000));
    await storage.checkouts.createCheckout(session('cs_c', 'paid', T + 2000));
    await storage.checkouts.createCheckout(session('cs_pending', 'pending', T + 3000));
    await storage.orders.recordPurchase('cs_a', buyer('ada@example.com', 'pi_a'), T + 10_000);
    await storage.orders.recordPurchase('cs_b', buyer('ADA@example.COM', 'pi_b'), T + 5000);
    await storage.orders.recordPurchase('cs_pending', buyer('ada@example.com', 'pi_p'), T + 20_000);
    const ids = async (filter: Parameters<typeof storage.orders.find>[0]) => (await storage.orders.find(filter)).map((o) => o.session.id);
    assert.equal(await ids({ limit: 10 }), ['cs_a', 'cs_b', 'cs_c'], 'by fulfilment time, else creation time');
    assert.equal(
      await ids({ email: 'Ada@Example.com', limit: 10 }),
      ['cs_a', 'cs_b'],
      'paid orders by email, exactly but for case, newest first: find({ email }) ids',
    );
    assert.equal(await ids({ email: 'ada@example.co', limit: 10 }), [], 'no partial match');
    assert.equal(await ids({ email: 'ada@example.com', limit: 1 }), ['cs_a'], 'at most the limit: find({ email }) ids');
    assert.equal(await ids({ session: 'cs_pending', limit: 10 }), ['cs_pending'], 'one session whatever its state: find({ session }) ids');
    assert.equal(await ids({ session: 'cs_none', limit: 10 }), [], 'an unknown session finds none: find({ session }) ids');
    assert.is(await storage.orders.sessionOfPayment('pi_b'), 'cs_b', 'a payment maps to its session: sessionOfPayment()');
    assert.is(await storage.orders.sessionOfPayment('pi_none'), null, 'an unknown payment is null: sessionOfPayment()');
  });

  test('refund and dispute flags end the same in every order of delivery, repeats included', async (context) => {
    const { storage } = current(context);
    const sets: PaymentFlag[][] = [['refunded'], ['disputed'], ['dispute_won'], ['disputed', 'dispute_won'], ['refunded', 'disputed', 'dispute_won']];
    let n = 0;
    for (const set of sets) {
      const results: OrderStanding[] = [];
      for (const order of permutations([...set, set[0]!])) {
        const id = `cs_f${n++}`;
        await storage.checkouts.createCheckout(session(id));
        for (const flag of order) await storage.change((tx) => tx.orders.flag(id, flag));
        results.push((await storage.orders.get(id))!.standing);
      }
      for (const standing of results) assert.equal(standing, results[0], set.join('+'));
      const expected = set.includes('refunded') || !set.includes('dispute_won');
      assert.is(isRevoked(results[0]!), expected, `${set.join('+')} revokes: ${expected}`);
    }
    assert.is(await storage.change((tx) => tx.orders.flag('cs_missing', 'refunded')), null, 'an unknown session is null: flag()');
  });

  test("flag answers the standing before; the operator's word stands until the provider's verdict changes", async (context) => {
    const { storage } = current(context);
    await storage.checkouts.createCheckout(session('cs_o'));
    const reinstated = await storage.change((tx) => tx.orders.override('cs_o', 'reinstated', 'proved the purchase', T + 1000));
    assert.equal(reinstated?.before, GOOD_STANDING, 'an override answers the standing before: override().before');
    assert.equal(
      reinstated?.order.standing,
      { ...GOOD_STANDING, override: 'reinstated', overrideReason: 'proved the purchase', overrideAt: T + 1000 },
      'an override is stored with its reason and time: override().order.standing',
    );
    const disputed = await storage.change((tx) => tx.orders.flag('cs_o', 'disputed'));
    assert.equal(disputed?.before, reinstated?.order.standing, 'flag answers the standing stored last: flag().before');
    assert.equal(disputed?.order.standing, { ...GOOD_STANDING, disputed: true }, 'a new verdict drops the override');
    const overridden = await storage.change((tx) => tx.orders.override('cs_o', 'reinstated', null, T + 2000));
    assert.equal(overridden?.before, { ...GOOD_STANDING, disputed: true }, 'the standing before is the one stored last');
    const again = await storage.change((tx) => tx.orders.flag('cs_o', 'disputed'));
    assert.is(again?.order.standing.override, 'reinstated', 'a repeated event changes nothing');
    assert.is(await storage.change((tx) => tx.orders.override('cs_missing', 'revoked', null, T)), null, 'an unknown session is null: override()');
  });

  test('a Plus key is added once, to stored keys only', async (context) => {
    const { storage } = current(context);
    await storage.checkouts.createCheckout(session('cs_u'));
    assert.is(await storage.change((tx) => tx.orders.addPlusKey('cs_u', 'key/p1')), null, 'no keys stored, no Plus key added: addPlusKey()');
    await storage.checkouts.saveLicenses('cs_u', { standard: 'key/s', plus: null });
    assert.equal(
      await storage.change((tx) => tx.orders.addPlusKey('cs_u', 'key/p1')),
      { keys: { standard: 'key/s', plus: 'key/p1' }, stored: true },
      'a Plus key is added to stored keys: addPlusKey()',
    );
    assert.equal(
      await storage.change((tx) => tx.orders.addPlusKey('cs_u', 'key/p2')),
      { keys: { standard: 'key/s', plus: 'key/p1' }, stored: false },
      'a Plus key is added once, the first wins: a second addPlusKey()',
    );
    assert.equal(await storage.checkouts.getLicenses('cs_u'), { standard: 'key/s', plus: 'key/p1' }, 'the keys with the first Plus key: getLicenses()');
  });

  test("the update window each key was sold with is kept with the keys: first save wins, lifetime when not given, the Plus key's with it", async (context) => {
    const { storage } = current(context);
    const windows = async (id: string) => (await storage.orders.get(id))?.windows;
    await storage.checkouts.createCheckout(session('cs_w1'));
    assert.equal(await windows('cs_w1'), LIFETIME_KEYS, 'an order without keys: lifetime, get().windows');
    await storage.change((tx) => tx.checkouts.saveLicenses('cs_w1', { standard: 'key/ws', plus: 'key/wp' }, { standard: 365, plus: 730 }));
    assert.equal(await windows('cs_w1'), { standard: 365, plus: 730 }, 'the windows saved with the keys: get().windows');
    await storage.change((tx) => tx.checkouts.saveLicenses('cs_w1', { standard: 'key/ws', plus: 'key/wp' }, { standard: 30, plus: null }));
    assert.equal(await windows('cs_w1'), { standard: 365, plus: 730 }, 'a second save changes no window: the first save wins');
    assert.equal(
      (await storage.orders.ofLicenseKey('key/wp'))?.windows,
      { standard: 365, plus: 730 },
      'the order of a key has them too: ofLicenseKey().windows',
    );
    await storage.checkouts.createCheckout(session('cs_w2'));
    await storage.checkouts.saveLicenses('cs_w2', { standard: 'key/w2', plus: null });
    assert.equal(await windows('cs_w2'), LIFETIME_KEYS, 'keys saved without windows are lifetime');
    await storage.change((tx) => tx.orders.addPlusKey('cs_w2', 'key/w2p', 90));
    assert.equal(await windows('cs_w2'), { standard: null, plus: 90 }, "the Plus key's window is stored with it: addPlusKey()");
    await storage.change((tx) => tx.orders.addPlusKey('cs_w2', 'key/w2q', 1));
    assert.equal(await windows('cs_w2'), { standard: null, plus: 90 }, 'a Plus key not stored stores no window: a second addPlusKey()');
    await storage.checkouts.createCheckout(session('cs_w3'));
    await storage.checkouts.saveLicenses('cs_w3', { standard: 'key/w3', plus: null }, { standard: 36500, plus: null });
    await storage.change((tx) => tx.orders.addPlusKey('cs_w3', 'key/w3p'));
    assert.equal(await windows('cs_w3'), { standard: 36500, plus: null }, 'a Plus key added without a window is lifetime');
  });

  test('an order change that throws keeps nothing: neither the keys and their windows, the Plus key, the flag, the override, nor their event and mail', async (context) => {
    const { storage } = current(context);
    await storage.change((tx) => tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/all', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T }));
    await storage.checkouts.createCheckout(session('cs_r1'));
    await storage.checkouts.createCheckout(session('cs_r2'));
    await storage.orders.recordPurchase('cs_r2', buyer('ada@example.com', 'pi_r2'), T);
    await storage.checkouts.saveLicenses('cs_r2', { standard: 'key/r2s', plus: null });
    const before = await Promise.all([storage.orders.get('cs_r1'), storage.orders.get('cs_r2')]);
    const failure = new Error('refused after the writes');
    const thrown = await storage
      .change(async (tx) => {
        assert.equal(await tx.checkouts.saveLicenses('cs_r1', { standard: 'key/r1s', plus: null }, { standard: 7, plus: null }), {
          keys: { standard: 'key/r1s', plus: null },
          stored: true,
        }, 'keys are saved in a change: saveLicenses()');
        assert.equal(await tx.checkouts.getLicenses('cs_r1'), { standard: 'key/r1s', plus: null }, 'a change reads the keys it saved');
        assert.is((await tx.orders.addPlusKey('cs_r2', 'key/r2p', 30))?.stored, true, 'a Plus key is added in a change: addPlusKey().stored');
        assert.is((await tx.orders.flag('cs_r2', 'refunded'))?.order.standing.refunded, true, 'a flag in a change: flag().order.standing.refunded');
        assert.is(
          (await tx.orders.override('cs_r1', 'revoked', 'test', T + 1))?.order.standing.override,
          'revoked',
          'an override in a change: override().order.standing.override',
        );
        await tx.outbox.enqueue({ type: 'order.paid', data: { session: 'cs_r1' } }, T);
        await tx.mail.enqueue({
          kind: 'keys',
          cause: 'paid:cs_r1',
          session: 'cs_r1',
          to: 'ada@example.com',
          subject: 'Keys',
          text: 'Keys',
          html: '<p>Keys</p>',
        }, T);
        throw failure;
      })
      .catch((error: unknown) => error);
    assert.is(thrown, failure, "the change's error comes out as thrown");
    assert.equal(
      await Promise.all([storage.orders.get('cs_r1'), storage.orders.get('cs_r2')]),
      before,
      'an order change that throws keeps nothing: get() of both orders',
    );
    assert.equal(await storage.checkouts.getLicenses('cs_r1'), null, 'the keys a change that throws saved are not kept: getLicenses()');
    assert.equal(await storage.outbox.listDeliveries({ limit: 10 }), [], 'the event of a change that throws is not kept: listDeliveries()');
    assert.equal(await storage.mail.list({ limit: 10 }), [], 'the mail of a change that throws is not kept: mail.list()');
    // The keys the rolled-back change saved were never stored: the next save is the first.
    assert.is(
      (await storage.checkouts.saveLicenses('cs_r1', { standard: 'key/r1b', plus: null })).stored,
      true,
      'the next save is the first: saveLicenses().stored',
    );
  });

  test('a key finds its order, by the standard or the plus key as issued; any other text finds none', async (context) => {
    const { storage } = current(context);
    await storage.checkouts.createCheckout({ ...session('cs_k1'), sku: 'plus_bundle' });
    await storage.checkouts.createCheckout(session('cs_k2'));
    await storage.checkouts.createCheckout(session('cs_k3'));
    await storage.checkouts.saveLicenses('cs_k1', { standard: 'key/k1s', plus: 'key/k1p' });
    await storage.checkouts.saveLicenses('cs_k2', { standard: 'key/k2s', plus: null });
    await storage.change((tx) => tx.orders.flag('cs_k2', 'refunded'));
    const found = async (key: string) => {
      const order = await storage.orders.ofLicenseKey(key);
      return order && [order.session.id, order.keys, isRevoked(order.standing)];
    };
    assert.equal(
      await found('key/k1s'),
      ['cs_k1', { standard: 'key/k1s', plus: 'key/k1p' }, false],
      'a standard key finds its order: ofLicenseKey() [session, keys, revoked]',
    );
    assert.equal(
      await found('key/k1p'),
      ['cs_k1', { standard: 'key/k1s', plus: 'key/k1p' }, false],
      'a plus key finds its order: ofLicenseKey() [session, keys, revoked]',
    );
    assert.equal(await found('key/k2s'), ['cs_k2', { standard: 'key/k2s', plus: null }, true], 'a refunded order is found, revoked');
    assert.is(await found('KEY/K1S'), null, 'exactly equal: no case folding');
    assert.is(await found('key/k1'), null, 'no prefix match');
    assert.is(await found(''), null, "empty text finds none: ofLicenseKey('')");
  });

  test("find by part of the buyer's name, any case, with the email too; paid orders only", async (context) => {
    const { storage } = current(context);
    const named = (name: string | null, email: string, ref: string) => ({ email, name, country: null, paymentRef: ref, amount: null, currency: null });
    await storage.checkouts.createCheckout(session('cs_n1', 'paid', T));
    await storage.checkouts.createCheckout(session('cs_n2', 'paid', T + 1000));
    await storage.checkouts.createCheckout(session('cs_n3', 'paid', T + 2000));
    await storage.checkouts.createCheckout(session('cs_n4', 'pending', T + 3000));
    await storage.orders.recordPurchase('cs_n1', named('Ada Lovelace', 'ada@example.com', 'pi_n1'), T);
    await storage.orders.recordPurchase('cs_n2', named('Charles BABBAGE', 'cb@example.com', 'pi_n2'), T + 1000);
    await storage.orders.recordPurchase('cs_n3', named(null, 'ada@example.com', 'pi_n3'), T + 2000);
    await storage.orders.recordPurchase('cs_n4', named('Ada Pending', 'ada@example.com', 'pi_n4'), T + 3000);
    const ids = async (filter: Parameters<typeof storage.orders.find>[0]) => (await storage.orders.find(filter)).map((o) => o.session.id);
    assert.equal(await ids({ name: 'ada', limit: 10 }), ['cs_n1'], "part of the buyer's name, any case: find({ name }) ids");
    assert.equal(await ids({ name: 'bAbBaGe', limit: 10 }), ['cs_n2'], "part of the buyer's name, any case: find({ name }) ids");
    assert.equal(await ids({ name: 'e', limit: 10 }), ['cs_n2', 'cs_n1'], 'a substring, newest first');
    assert.equal(await ids({ name: '%', limit: 10 }), [], 'no pattern characters');
    assert.equal(await ids({ name: '_', limit: 10 }), [], "no pattern characters: find({ name: '_' }) ids");
    assert.equal(await ids({ name: 'Ada', email: 'ADA@example.com', limit: 10 }), ['cs_n1'], 'both filters at once');
    assert.equal(await ids({ name: 'Ada', email: 'cb@example.com', limit: 10 }), [], 'name and email must both match: find({ name, email }) ids');
  });

  test('a period lists paid orders oldest first by fulfilment (else creation) time, in pages after a cursor', async (context) => {
    const { storage } = current(context);
    for (const [id, created] of [['cs_p1', T], ['cs_p2', T + 1000], ['cs_p3', T + 1000], ['cs_p4', T + 5000]] as const) {
      await storage.checkouts.createCheckout(session(id, 'paid', created));
    }
    await storage.checkouts.createCheckout(session('cs_p5', 'expired', T + 2000));
    await storage.orders.recordPurchase('cs_p4', { ...buyer('d@example.com', 'pi_p4'), amount: '49.00', currency: 'USD' }, T + 500);
    const ids = async (period: Parameters<typeof storage.orders.inPeriod>[0]) => (await storage.orders.inPeriod(period)).map((o) => o.session.id);
    assert.equal(await ids({ from: 0, until: T + 10_000, limit: 10 }), ['cs_p1', 'cs_p4', 'cs_p2', 'cs_p3'], 'cs_p4 by its fulfilment time');
    assert.equal(await ids({ from: T + 500, until: T + 1000, limit: 10 }), ['cs_p4'], 'from included, until excluded');
    assert.equal(await ids({ from: 0, until: T + 10_000, limit: 2 }), ['cs_p1', 'cs_p4'], 'at most the limit, oldest first: inPeriod() ids');
    assert.equal(
      await ids({ from: 0, until: T + 10_000, after: { at: T + 500, session: 'cs_p4' }, limit: 2 }),
      ['cs_p2', 'cs_p3'],
      'the page after a cursor: inPeriod({ after }) ids',
    );
    assert.equal(await ids({ from: 0, until: T + 10_000, after: { at: T + 1000, session: 'cs_p2' }, limit: 2 }), ['cs_p3'], 'the same time: by session id');
    const [first] = await storage.orders.inPeriod({ from: T + 500, until: T + 501, limit: 1 });
    assert.equal(
      [first?.paidAt, first?.purchase.amount, first?.purchase.currency],
      [T + 500, '49.00', 'USD'],
      'an order of a period holds its fulfilment time and amount: inPeriod()[0] [paidAt, amount, currency]',
    );
  });
}
