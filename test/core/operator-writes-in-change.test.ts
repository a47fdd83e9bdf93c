/**
 * An operator's write exists only on a change's stores (core/ports/change.ts `ChangedStores`): on `Storage`,
 * the stores a change writes are read faces with the writes made outside a change named (the payment
 * path's, the workers', the first-write-wins records). The compiler checks the faces (each
 * `@ts-expect-error` below fails `npm run typecheck` when that write comes back on `Storage`); the test
 * checks that the writes made outside a change still work there, and that a change has every write.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import type { Storage } from '../../core/storage.ts';

/** Never called: the writes `Storage` must not have, one line each. */
export function operatorWritesAreNotOnStorage(storage: Storage): void {
  // @ts-expect-error publishing is an operator's write
  void storage.releases.publishRelease;
  // @ts-expect-error the rollout too
  void storage.releases.setRollout;
  // @ts-expect-error the roadmap's edits
  void storage.features.merge;
  // @ts-expect-error marking feedback handled
  void storage.inbox.setHandled;
  // @ts-expect-error an order's override
  void storage.orders.override;
  // @ts-expect-error an order's flag
  void storage.orders.flag;
  // @ts-expect-error a webhook endpoint
  void storage.outbox.addEndpoint;
  // @ts-expect-error an event
  void storage.outbox.enqueue;
  // @ts-expect-error an audit entry
  void storage.audit.record;
  // @ts-expect-error a mail
  void storage.mail.enqueue;
  // @ts-expect-error a link
  void storage.links.setFeature;
  // @ts-expect-error a requester told
  void storage.shipping.markTold;
}

test('the writes made outside a change are on Storage; a change has the operator writes as well', async () => {
  const storage = createMemoryStorage();
  const outside = [
    typeof storage.orders.recordPurchase,
    typeof storage.orders.keepPaymentEvent,
    typeof storage.orders.takePaymentEvents,
    typeof storage.mail.requestResend,
    typeof storage.mail.claimDue,
    typeof storage.outbox.recordAttempt,
    typeof storage.shipping.unsubscribe,
    typeof storage.shipping.recordReachedEveryone,
  ];
  assert.equal(new Set(outside), new Set(['function']));
  await storage.orders.keepPaymentEvent('pi_1', { flag: 'refunded', dispute: '' }, 0);
  assert.equal(await storage.orders.takePaymentEvents('pi_1'), [{ flag: 'refunded', dispute: '' }]);
  const published = await storage.change((tx) =>
    tx.releases.publishRelease({ version: '2.6.0', msiUrl: 'https://example.com/a.msi', notesUrl: null, rolloutBasisPoints: 1000, publishedAt: 0 })
  );
  assert.is(published, true);
  assert.equal((await storage.releases.listReleases()).map((r) => r.version), ['2.6.0']);
});

test.run();
