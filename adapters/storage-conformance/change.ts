/**
 * Contract: a change (`Storage.change`) is one unit of work. What it writes through its stores, with its
 * event, audit entry and mail, commits together when it resolves; when it throws, none of it is kept, in
 * any store, and the error comes out as thrown; only its own writes are undone (a feedback entry and its
 * event written outside it meanwhile stay). A change reads its own writes.
 */
import * as assert from './assert.ts';
import { type ContractSuite, current } from './context.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { newRelease } from './fixtures.ts';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0, 1);
const RELEASE = newRelease('2.7.0', 10, T0);
const FEATURE = { title: '.wk3 charts', description: 'Charts of .wk3 files', category: 'formats', visible: true, release_version: null };
const AUDIT = { at: T0, action: 'release.published', target: '2.7.0 at 10%', requestId: 'r-1', actor: 'ada' };
const MAIL = {
  kind: 'keys',
  cause: 'change:1',
  session: 'cs_change',
  to: 'buyer@example.com',
  subject: 'Your keys',
  text: 'Keys',
  html: '<p>Keys</p>',
} as const;
const UPDATE_FILE = {
  channel: 'stable',
  role: 'timestamp',
  version: 1,
  text: '{"signed":{"_type":"timestamp","version":1}}',
  storedAt: T0,
  expiresAt: T0 + 86_400_000,
} as const;
const ENTRY = { type: 'feature_request', description: 'Charts', email: null, appVersion: null, rating: null, receivedAt: T0 } as const;

/** What a change may leave behind, read outside any change. */
async function everything(storage: Storage) {
  return {
    releases: (await storage.releases.listReleases()).map((r) => [r.version, r.rolloutBasisPoints, r.pulledAt]),
    features: (await storage.features.list()).map((f) => [f.id, f.title, f.visible]),
    handled: (await storage.inbox.list({ limit: 10 })).map((e) => [e.id, e.handledAt]),
    endpoints: (await storage.outbox.listEndpoints()).map((e) => [e.url, e.enabled]),
    deliveries: (await storage.outbox.listDeliveries({ limit: 10 })).map((d) => d.type),
    audit: (await storage.audit.list({ limit: 10 })).map((a) => a.action),
    mail: (await storage.mail.list({ limit: 10 })).map((m) => m.cause),
    updateFiles: (await storage.updateFiles.listUpdateFiles('stable')).map((f) => [f.role, f.version]),
  };
}

export function changeContract(test: ContractSuite): void {
  test('what a change writes, with its event, audit entry and mail, is kept together once it resolves', async (context) => {
    const { storage } = current(context);
    await storage.change((tx) => tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/all', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T0 }));
    const answer = await storage.change(async (tx) => {
      assert.is(await tx.releases.publishRelease(RELEASE), true, 'a change publishes: publishRelease() in the change');
      assert.equal((await tx.releases.listReleases()).map((r) => r.version), ['2.7.0'], 'a change reads its own writes');
      await tx.outbox.enqueue({ type: 'release.published', data: { version: '2.7.0' } }, T0);
      await tx.audit.record(AUDIT);
      assert.is(await tx.mail.enqueue(MAIL, T0), true, 'a change writes a mail with its cause: mail.enqueue() in the change');
      assert.is(await tx.updateFiles.putUpdateFile(UPDATE_FILE), true, 'a change stores an update file: updateFiles.putUpdateFile() in the change');
      return 'done';
    });
    assert.is(answer, 'done', 'the change answers what its work answered');
    assert.equal(await everything(storage), {
      releases: [['2.7.0', 10, null]],
      features: [],
      handled: [],
      endpoints: [['http://127.0.0.1:9/all', true]],
      deliveries: ['release.published'],
      audit: ['release.published'],
      mail: ['change:1'],
      updateFiles: [['timestamp', 1]],
    }, 'what a change writes, with its event, audit entry and mail, is kept together once it resolves: every store read after it');
  });

  test('a change that throws keeps nothing of what it wrote, in any store, and the error comes out', async (context) => {
    const { storage } = current(context);
    await storage.change((tx) => tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/all', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T0 }));
    await storage.intake.addFeedback(ENTRY);
    await storage.change((tx) => tx.releases.publishRelease({ ...RELEASE, version: '2.6.0', rolloutBasisPoints: 100 }));
    const before = await everything(storage);
    const failure = new Error('refused after the writes');
    const thrown = await storage
      .change(async (tx) => {
        await tx.releases.publishRelease(RELEASE);
        await tx.releases.pullRelease('2.6.0', T0 + 1);
        await tx.features.create(FEATURE);
        await tx.inbox.setHandled(1, true, T0 + 2);
        await tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/new', secret: 'whsec_BBBB', events: [], format: 'standard', createdAt: T0 });
        await tx.outbox.enqueue({ type: 'release.published', data: { version: '2.7.0' } }, T0);
        await tx.audit.record(AUDIT);
        await tx.mail.enqueue(MAIL, T0);
        await tx.updateFiles.putUpdateFile(UPDATE_FILE);
        throw failure;
      })
      .catch((error: unknown) => error);
    assert.is(thrown, failure, 'the very error the work threw');
    assert.equal(await everything(storage), before, 'a change that throws keeps nothing of what it wrote, in any store: every store read after it');
    assert.is(await storage.change((tx) => tx.mail.enqueue(MAIL, T0)), true, 'the rolled-back mail left no trace of its cause');
    // The storage goes on: the next change commits.
    await storage.change(async (tx) => void (await tx.releases.publishRelease(RELEASE)));
    assert.equal(
      (await storage.releases.listReleases()).map((r) => r.version),
      ['2.7.0', '2.6.0'],
      'the next change commits; equal publish times list the later published first: listReleases() versions',
    );
  });

  test('a change that throws undoes only its own writes: a feedback entry and its event written while it waited stay', async (context) => {
    const { storage } = current(context);
    await storage.change((tx) =>
      tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/feedback', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: T0 })
    );
    await storage.intake.addFeedback(ENTRY);
    const failure = new Error('refused after waiting');
    let meanwhile: Promise<unknown> | null = null;
    const thrown = await storage
      .change(async (tx) => {
        await tx.inbox.setHandled(1, true, T0 + 1);
        await tx.outbox.enqueue({ type: 'release.published', data: { version: '2.7.0' } }, T0 + 1);
        // A public write while the change waits: started, not awaited (one connection waits for the change).
        meanwhile = storage.intake.addFeedback({ ...ENTRY, description: 'Written meanwhile', receivedAt: T0 + 2 });
        // A timer lets other work in (as a signature or a provider's answer would); no deadline.
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw failure;
      })
      .catch((error: unknown) => error);
    await meanwhile;
    assert.is(thrown, failure, 'the very error the work threw');
    const rule = 'a change that throws undoes only its own writes; writes made outside it meanwhile stay';
    const entries = (await storage.inbox.list({ limit: 10 })).map((e) => [e.id, e.description, e.handledAt]);
    assert.equal(entries, [[2, 'Written meanwhile', null], [1, 'Charts', null]], `${rule}: the feedback written meanwhile stays, the mark goes`);
    const deliveries = (await storage.outbox.listDeliveries({ limit: 10 })).map((d) => d.type);
    assert.equal(deliveries, ['feedback.received', 'feedback.received'], `${rule}: its feedback.received event stays, the change's event goes`);
  });

  test('two changes of one record at once: the second reads what the first wrote', async (context) => {
    const { storage } = current(context);
    await storage.change((tx) => tx.releases.publishRelease(RELEASE));
    /** Widens by 10 points, from what the change reads (a lost update would leave 20). */
    const widen = () =>
      storage.change(async (tx) => {
        await tx.lock('releases');
        const [release] = await tx.releases.listReleases();
        return (await tx.releases.setRollout(release!.version, release!.rolloutBasisPoints + 10))!.rolloutBasisPoints;
      });
    assert.equal(
      (await Promise.all([widen(), widen()])).sort(),
      [20, 30],
      'two changes of one record at once: the second reads what the first wrote: the rollouts they set',
    );
    assert.is((await storage.releases.listReleases())[0]!.rolloutBasisPoints, 30, 'no lost update: listReleases()[0].rolloutBasisPoints');
  });
}
