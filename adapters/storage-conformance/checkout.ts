/**
 * Contract: checkout sessions, the state machine of core/ports/checkout-state.ts, and exactly-once licenses.
 */
import * as assert from './assert.ts';
import { nextCheckoutState } from '../../core/ports/checkout-state.ts';
import type { CheckoutSession, CheckoutState } from '../../core/ports/ports.ts';
import { type ContractSuite, current } from './context.ts';

const STATES: readonly CheckoutState[] = ['pending', 'processing', 'paid', 'expired', 'failed'];

const session = (id: string, state: CheckoutState = 'pending'): CheckoutSession => ({
  id,
  sku: 'plus_bundle',
  channel: 'msi',
  url: `https://pay.example.com/c/${id}`,
  state,
  createdAt: Date.UTC(2026, 10, 21, 12, 0, 0, 123),
  expiresAt: Date.UTC(2026, 10, 22, 12, 0, 0, 123),
});

export function checkoutContract(test: ContractSuite): void {
  test('a session is stored as given; an unknown id is null; a duplicate id is refused', async (context) => {
    const { storage } = current(context);
    await storage.checkouts.createCheckout(session('cs_1'));
    await storage.checkouts.createCheckout({ ...session('cs_2'), sku: 'standard', channel: null });
    assert.equal(await storage.checkouts.getCheckout('cs_1'), session('cs_1'), 'a session is stored as given: getCheckout()');
    assert.equal(
      await storage.checkouts.getCheckout('cs_2'),
      { ...session('cs_2'), sku: 'standard', channel: null },
      'a session is stored as given, a null channel too: getCheckout()',
    );
    assert.is(await storage.checkouts.getCheckout('cs_missing'), null, 'an unknown id is null: getCheckout()');
    let refused = false;
    await storage.checkouts.createCheckout(session('cs_1')).catch(() => (refused = true));
    assert.ok(refused, 'a second session with the same id must be refused');
  });

  test('advanceCheckout follows nextCheckoutState for every pair of states', async (context) => {
    const { storage } = current(context);
    for (const from of STATES) {
      for (const to of STATES) {
        const id = `cs_${from}_${to}`;
        await storage.checkouts.createCheckout(session(id, from));
        const after = await storage.checkouts.advanceCheckout(id, to);
        assert.equal(after, session(id, nextCheckoutState(from, to)), `${from} -> ${to}`);
        assert.equal(await storage.checkouts.getCheckout(id), after, 'the session read back is the one advanceCheckout() answered: getCheckout()');
      }
    }
    assert.is((await storage.checkouts.getCheckout('cs_paid_pending'))?.state, 'paid', 'a final state is kept: getCheckout().state');
    assert.is(
      (await storage.checkouts.getCheckout('cs_processing_pending'))?.state,
      'processing',
      'never from processing back to pending: getCheckout().state',
    );
    assert.is((await storage.checkouts.getCheckout('cs_pending_paid'))?.state, 'paid', 'pending may become paid: getCheckout().state');
  });

  test('advancing an unknown session answers null', async (context) => {
    assert.is(
      await current(context).storage.checkouts.advanceCheckout('cs_missing', 'paid'),
      null,
      'advancing an unknown session answers null: advanceCheckout()',
    );
  });

  test("openCheckouts lists the expiries of an owner's pending, unexpired sessions, earliest first, at most limit", async (context) => {
    const { storage } = current(context);
    const at = (id: string, expiresAt: number, state: CheckoutState = 'pending') => ({ ...session(id, state), expiresAt });
    const t = Date.UTC(2026, 10, 22, 12, 0, 0, 0);
    await storage.checkouts.createCheckout(at('cs_a3', t + 3000), 'owner-a');
    await storage.checkouts.createCheckout(at('cs_a1', t + 1000), 'owner-a');
    await storage.checkouts.createCheckout(at('cs_a2', t + 2000), 'owner-a');
    await storage.checkouts.createCheckout(at('cs_a_paid', t + 500, 'paid'), 'owner-a');
    await storage.checkouts.createCheckout(at('cs_a_old', t - 1), 'owner-a');
    await storage.checkouts.createCheckout(at('cs_b', t + 100), 'owner-b');
    await storage.checkouts.createCheckout(at('cs_none', t + 100));
    assert.equal(
      await storage.checkouts.openCheckouts('owner-a', t, 10),
      [t + 1000, t + 2000, t + 3000],
      "an owner's pending, unexpired sessions' expiries, earliest first: openCheckouts()",
    );
    assert.equal(await storage.checkouts.openCheckouts('owner-a', t, 2), [t + 1000, t + 2000], 'at most the limit: openCheckouts()');
    await storage.checkouts.advanceCheckout('cs_a1', 'processing');
    assert.equal(await storage.checkouts.openCheckouts('owner-a', t + 2000, 10), [t + 3000], 'processing and expired ones are not open');
    assert.equal(await storage.checkouts.openCheckouts('owner-c', t, 10), [], 'an owner with no sessions has none open: openCheckouts()');
  });

  test('licenses are saved once: the first keys win and are what every later save answers', async (context) => {
    const { storage } = current(context);
    // No session cs_1 is stored: keys of a session never created are kept the same way.
    const rule = 'keys are saved once, for a session never created too; the first keys win';
    assert.is(await storage.checkouts.getLicenses('cs_1'), null, 'no keys saved: getLicenses() is null');
    const first = { standard: 'key/a', plus: 'key/b' };
    assert.equal(await storage.checkouts.saveLicenses('cs_1', first), { keys: first, stored: true }, `${rule}: the first saveLicenses()`);
    assert.equal(
      await storage.checkouts.saveLicenses('cs_1', { standard: 'key/c', plus: null }),
      { keys: first, stored: false },
      `${rule}: a second saveLicenses()`,
    );
    assert.equal(await storage.checkouts.saveLicenses('cs_1', first), { keys: first, stored: false }, 'identical keys saved again are not stored again');
    assert.equal(await storage.checkouts.getLicenses('cs_1'), first, `${rule}: getLicenses()`);
    assert.equal(
      await storage.checkouts.saveLicenses('cs_2', { standard: null, plus: 'key/p' }),
      { keys: { standard: null, plus: 'key/p' }, stored: true },
      'keys with no standard key are saved too: saveLicenses()',
    );
  });

  test('racing saves in changes: one stores the keys and writes its event and mail, every save answers its keys', async (context) => {
    const { storage } = current(context);
    const at = Date.UTC(2026, 10, 21, 12, 5, 0, 0);
    await storage.change((tx) => tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/all', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: at }));
    /** A fulfilment's save: order.paid and the keys mail only by the call that stored them. */
    const save = (i: number) =>
      storage.change(async (tx) => {
        const saved = await tx.checkouts.saveLicenses('cs_race', { standard: `key/s${i}`, plus: null });
        if (saved.stored) {
          await tx.outbox.enqueue({ type: 'order.paid', data: { key: saved.keys.standard } }, at);
          await tx.mail.enqueue({
            kind: 'keys',
            cause: `paid:cs_race:${i}`,
            session: 'cs_race',
            to: 'ada@example.com',
            subject: 'Keys',
            text: 'Keys',
            html: '<p>Keys</p>',
          }, at);
        }
        return saved;
      });
    const saves = await Promise.all(Array.from({ length: 6 }, (_, i) => save(i)));
    const winner = saves.filter((saved) => saved.stored);
    assert.is(winner.length, 1, 'exactly one save stored the keys');
    assert.equal(new Set(saves.map((saved) => saved.keys.standard)).size, 1, 'every save answers the stored keys');
    assert.equal(await storage.checkouts.getLicenses('cs_race'), winner[0]!.keys, "the stored keys are the winner's: getLicenses()");
    assert.equal(
      (await storage.outbox.listDeliveries({ limit: 10 })).map((d) => d.type),
      ['order.paid'],
      'only the storing save wrote its event: listDeliveries() types',
    );
    assert.is((await storage.mail.list({ limit: 10 })).length, 1, 'only the storing save wrote its mail: mail.list() length');
  });
}
