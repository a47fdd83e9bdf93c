/**
 * POST checkout/create is not a payment-provider write per request: a client may hold at most
 * openCheckoutsPerClient (10) unpaid, unexpired sessions, and past it the answer is 429
 * too_many_checkouts with Retry-After and no call to Stripe (played by the stand-in, which counts the
 * calls). A paid session, or the expiry of the oldest, frees a place. Run on every storage.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { closeTestDatabases } from '../_databases.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { pgliteTarget, postgresTarget } from '../storage/_targets.ts';
import { type StripeFixture, stripeFixture } from './_fixtures.ts';

interface Context {
  f: StripeFixture;
  server: InProcessServer;
  close: () => Promise<void>;
}

const STORAGES = [
  { name: 'memory', open: async (f: StripeFixture) => ({ storage: createMemoryStorage({ clock: f.clock }), close: async () => {} }) },
  { name: 'pglite', open: () => pgliteTarget.open() },
  { name: 'postgres', open: () => postgresTarget.open() },
];

const DAY_MS = 24 * 3600 * 1000;

for (const { name, open } of STORAGES) {
  const test = suite<Context>(`open checkout sessions per client on ${name} storage`, {} as Context);

  test.before.each(async (context) => {
    context.f = await stripeFixture();
    const opened = await open(context.f);
    context.server = await startInProcessServer({ gateway: context.f.gateway, clock: context.f.clock, storage: opened.storage });
    context.close = opened.close;
  });
  test.after.each(async ({ f, server, close }) => {
    await server.close();
    await close();
    await f.close();
  });

  const create = ({ server }: Context, from: string) =>
    server.request({
      method: 'POST',
      path: '/api/v1/checkout/create',
      headers: { 'content-type': 'application/json' },
      body: '{"product":"standard","channel":"msi"}',
      from,
    });
  const providerCreates = ({ f }: Context) => f.stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').length;

  test('ten addresses sending 15 creates each at once get 10 sessions each: 100 provider calls, 50 refusals', async (context) => {
    const addresses = Array.from({ length: 10 }, (_, i) => `127.0.4.${i + 1}`);
    const answers = await Promise.all(addresses.flatMap((from) => Array.from({ length: 15 }, () => create(context, from))));
    assert.is(providerCreates(context), 100);
    for (const [a, from] of addresses.entries()) {
      const own = answers.slice(a * 15, a * 15 + 15);
      assert.is(own.filter((answer) => answer.status === 200).length, 10, from);
      const refused = own.filter((answer) => answer.status === 429);
      assert.is(refused.length, 5, from);
      const oldest = new Date(context.f.clock.now() + DAY_MS).toISOString();
      for (const answer of refused) {
        assert.equal(answer.json(), {
          code: 'too_many_checkouts',
          message: 'This address has 10 unpaid checkout sessions open, the most it may hold at once.',
          resolution: `Pay with a checkout session already opened, or retry after ${oldest}, when the oldest one expires (Retry-After gives the seconds).`,
        });
        assert.is(answer.headers['retry-after'], String(DAY_MS / 1000));
        assert.is(answer.headers['content-type'], 'application/json');
        assert.match(answer.headers['ratelimit'] ?? '', /^"public-api";r=\d+;t=\d+$/);
      }
    }
  });

  test('a paid session frees a place; the expiry of the open ones frees them all', async (context) => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((((await create(context, '127.0.5.1')).json()) as { sessionId: string }).sessionId);
    assert.is((await create(context, '127.0.5.1')).status, 429);
    assert.is((await create(context, '127.0.5.2')).status, 200, 'another address is not held back');

    context.f.stripe.pay(ids[0]!);
    const status = await context.server.request({ path: `/api/v1/checkout/status?session_id=${ids[0]}`, from: '127.0.5.1' });
    assert.is((status.json() as { status: string }).status, 'paid');
    assert.is((await create(context, '127.0.5.1')).status, 200, 'the paid session no longer counts');
    assert.is((await create(context, '127.0.5.1')).status, 429);

    context.f.clock.advance(DAY_MS);
    assert.is((await create(context, '127.0.5.1')).status, 200, 'sessions past their expiry no longer count');
    assert.is(providerCreates(context), 13);
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
