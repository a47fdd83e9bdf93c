/**
 * Two runs of the kit against one target from one client address (issue 53): the target caps the unpaid
 * checkout sessions an address holds (10), and a run opens 9. Without a payment hook the kit says so
 * before it starts, and the second run's checkout checks fail naming the target's too_many_checkouts
 * refusal and what to do, not the quota; with one it pays what it opened, and the second run passes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ConformanceReport, runConformance, simulatorPayment } from '../../client/conformance/index.ts';
import { referenceApp } from './_reference.ts';

const failures = (report: ConformanceReport) => report.checks.filter((check) => check.status === 'fail');

/** Runs the kit twice against one app from its one address, waiting for the quota on the app's clock. */
async function twice(extra: Partial<Parameters<typeof runConformance>[0]>) {
  const { fetch, clock } = await referenceApp();
  const lines: string[][] = [[], []];
  const run = (n: 0 | 1) => runConformance({ fetch, sleep: async (ms) => clock.advance(ms), log: (line) => lines[n]!.push(line), ...extra });
  return { first: await run(0), second: await run(1), lines };
}

test('without a payment hook: the run says what it leaves, and the second run fails on too_many_checkouts, saying what to do', async () => {
  const { first, second, lines } = await twice({});
  assert.equal(failures(first), []);
  assert.is(
    lines[0]![1],
    'it opens up to 9 checkout sessions from this address and leaves them unpaid; a target may cap the unpaid sessions per address ' +
      '(this server: 10 at once, each open a day), so a second run from this address may fail the checkout checks with too_many_checkouts: ' +
      'give --pay-url to have them paid, or --client-address-header for a fresh address per check',
  );
  const failed = failures(second);
  assert.equal(failed.map((check) => check.id), ['checkout-create-products', 'checkout-status', 'alias-checkout', 'rate-limit-headers']);
  for (const check of failed) {
    assert.match(check.message, /was refused 429 too_many_checkouts \("This address has 10 unpaid checkout sessions open/);
    assert.match(check.message, /not the rate limit but the target's cap on the unpaid checkout sessions one address holds/);
    assert.match(
      check.message,
      /run with --client-address-header \(a fresh address per check\) or --pay-url \(the kit pays the sessions it opens\), or wait \d+ s \(Retry-After\) for them to expire$/,
    );
    assert.not.match(check.message, /quota/);
  }
});

test('with the payment hook: the run pays the sessions it opened, and a second run passes', async () => {
  const { first, second, lines } = await twice({ payCheckout: simulatorPayment });
  assert.equal(failures(first), []);
  assert.equal(failures(second), []);
  assert.is(lines[0]![1], 'it opens up to 10 checkout sessions from this address and pays them through the payment hook: it leaves none open');
  assert.ok(lines[0]!.includes('paid 8 of the 8 checkout sessions the run left unpaid'), lines[0]!.join('\n'));
});

test.run();
