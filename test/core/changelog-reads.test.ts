/**
 * What the changelog costs storage: both feeds read each store at most once a second per app (requests
 * under way share one read, a 304 reads nothing more), a change through this app's operator API is served
 * at once with the clock not moved, another instance's change once the clock passes a second, and a failed
 * read answers 500 internal_error as before and is not kept. Reads are counted by a thin wrapper around the
 * memory storage's stores.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage, type MemoryStorage } from '../../adapters/memory/index.ts';
import { operateOk, OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type ManualClock, manualClock, type TestApp } from '../_setup.ts';

const test = suite('changelog reads');
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

/** The memory storage with its releases, roadmap and shipping reads counted; `failing` makes the release read throw. */
function countedStorage(storage: MemoryStorage) {
  const reads = { releases: 0, features: 0, shipping: 0 };
  const state = { failing: false };
  const releases: MemoryStorage['releases'] = Object.assign(Object.create(storage.releases), {
    listReleases: () => {
      reads.releases += 1;
      return state.failing ? Promise.reject(new Error('connection refused')) : storage.releases.listReleases();
    },
  });
  const features: MemoryStorage['features'] = Object.assign(Object.create(storage.features), {
    list: () => {
      reads.features += 1;
      return storage.features.list();
    },
  });
  const shipping: MemoryStorage['shipping'] = Object.assign(Object.create(storage.shipping), {
    reachedEveryone: () => {
      reads.shipping += 1;
      return storage.shipping.reachedEveryone();
    },
  });
  const counted: MemoryStorage = Object.assign(Object.create(storage), { releases, features, shipping });
  return { storage: counted, reads, state };
}

/** An operator change that must succeed. */
const operate = (t: TestApp, method: string, path: string, json?: unknown) => operateOk(t.app, method, path, json);

const get = (t: TestApp, path = '/api/v1/changelog', headers: Record<string, string> = {}) => t.app.handle(coreRequest({ path, headers }));

interface Feed {
  items: { _release: { version: string; features: { id: number }[] } }[];
}
/** Each release in the JSON Feed with the ids of the roadmap items it shipped. */
const shipped = (response: Awaited<ReturnType<typeof get>>) =>
  (bodyJson(response) as Feed).items.map((item) => [item._release.version, item._release.features.map((feature) => feature.id)]);

/** Apps over one counted memory storage on one clock; 2.5.0 published at 100 % (roadmap item 2 names it). */
async function instances(
  count = 1,
): Promise<{ apps: TestApp[]; clock: ManualClock; reads: ReturnType<typeof countedStorage>['reads']; state: { failing: boolean } }> {
  const clock = manualClock();
  const { storage, reads, state } = countedStorage(createMemoryStorage({ clock }));
  const apps: TestApp[] = [];
  for (let i = 0; i < count; i++) apps.push(await createTestApp({ clock, storage, operatorToken: OPERATOR_TOKEN }));
  await operate(apps[0]!, 'POST', '/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 100 });
  for (const key of Object.keys(reads) as (keyof typeof reads)[]) reads[key] = 0;
  return { apps, clock, reads, state };
}

test('within a second both feeds, requests under way and a 304 read each store once; then they read again', async () => {
  const { apps: [t], clock, reads } = await instances();
  const [first, same] = await Promise.all([get(t!), get(t!)]);
  assert.is(first.status, 200);
  assert.equal(shipped(first), [['2.5.0', [2]]]);
  assert.is(bodyText(same), bodyText(first));
  assert.is(same.headers['etag'], first.headers['etag']);
  assert.is((await get(t!, '/api/v1/changelog.atom')).status, 200);
  clock.advance(999);
  const revalidated = await get(t!, '/api/v1/changelog', { 'if-none-match': first.headers['etag']! });
  assert.is(revalidated.status, 304);
  assert.is(revalidated.headers['etag'], first.headers['etag']);
  assert.is(revalidated.headers['last-modified'], first.headers['last-modified']);
  assert.equal(reads, { releases: 1, features: 1, shipping: 1 });
  clock.advance(1);
  assert.is((await get(t!, '/api/v1/changelog', { 'if-none-match': first.headers['etag']! })).status, 304);
  assert.equal(reads, { releases: 2, features: 2, shipping: 2 });
});

test("a change through this app's operator API is served at once, the clock not moved", async () => {
  const { apps: [t] } = await instances();
  const before = await get(t!);
  assert.equal(shipped(before), [['2.5.0', [2]]]);
  await operate(t!, 'PATCH', '/roadmap/3', { release_version: '2.5.0' });
  const linked = await get(t!, '/api/v1/changelog', { 'if-none-match': before.headers['etag']! });
  assert.is(linked.status, 200);
  assert.equal(shipped(linked), [['2.5.0', [2, 3]]]);
  await operate(t!, 'POST', '/releases', { version: '2.6.0', msiUrl: MSI('2.6.0'), rolloutPercent: 10 });
  assert.equal(shipped(await get(t!)), [['2.5.0', [2, 3]]]);
  await operate(t!, 'POST', '/releases/2.6.0/rollout', { rolloutPercent: 100 });
  assert.equal(shipped(await get(t!)), [['2.6.0', []], ['2.5.0', [2, 3]]]);
  await operate(t!, 'POST', '/releases/2.6.0/pull');
  assert.equal(shipped(await get(t!)), [['2.5.0', [2, 3]]]);
});

test("another instance's change is served once the clock passes a second, not before", async () => {
  const { apps: [served, other], clock } = await instances(2);
  const before = await get(served!);
  await operate(other!, 'PATCH', '/roadmap/3', { release_version: '2.5.0' });
  assert.equal(shipped(await get(other!)), [['2.5.0', [2, 3]]]);
  clock.advance(999);
  assert.is((await get(served!, '/api/v1/changelog', { 'if-none-match': before.headers['etag']! })).status, 304);
  clock.advance(1);
  const after = await get(served!, '/api/v1/changelog', { 'if-none-match': before.headers['etag']! });
  assert.is(after.status, 200);
  assert.equal(shipped(after), [['2.5.0', [2, 3]]]);
});

test('a failed read answers 500 internal_error as before, is not kept, and the next request reads again', async () => {
  const { apps: [t], clock, reads, state } = await instances();
  const first = await get(t!);
  clock.advance(1000);
  state.failing = true;
  const failed = await get(t!);
  assert.is(failed.status, 500);
  assert.equal(bodyJson(failed), {
    code: 'internal_error',
    message: 'The server failed to handle the request.',
    resolution: 'Retry later; if the problem persists, contact support.',
  });
  assert.is((await get(t!, '/api/v1/changelog.atom')).status, 500);
  assert.is(reads.releases, 3);
  state.failing = false;
  const again = await get(t!);
  assert.is(again.status, 200);
  assert.is(bodyText(again), bodyText(first));
  assert.is(again.headers['etag'], first.headers['etag']);
  assert.is(reads.releases, 4);
});

test.run();
