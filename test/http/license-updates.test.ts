/**
 * The operator's answer to a buyer (issue 56): GET /licenses/updates, in process on an injected clock. By key,
 * every stored release with its verdict (covered within the window, a bug fix of the fallback line, a paid
 * upgrade) and the reason in words; by email, the buyer's keys as one installation, which takes the latest
 * window; a revoked order covers nothing. Its exact body.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LicenseUpdates } from '../../core/operator/license-updates.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';

interface Context {
  op: InProcessOperator;
}
const test = suite<Context>('operator API: which versions a license may install', {} as Context);

const at = (iso: string) => Date.parse(iso);

test.before.each(async (context) => {
  context.op = await startInProcessOperator({
    updateWindows: { standard: { standard: 365 }, plus_addon: { plus: 180 }, plus_bundle: { standard: 365, plus: 365 } },
  });
});

async function publishAt({ op }: Context, version: string, iso: string): Promise<void> {
  op.server.clock.set(at(iso));
  const published = await op.call('/releases', {
    method: 'POST',
    json: { version, msiUrl: `https://downloads.example.com/app-${version}.msi`, rolloutPercent: 100 },
  });
  assert.is(published.status, 201, published.text);
}

/** A standard order paid at `iso` by grace@example.com; its session and key. */
async function buyAt({ op }: Context, iso: string): Promise<{ session: string; key: string }> {
  op.server.clock.set(at(iso));
  const created = await op.server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ product: 'standard' }),
  });
  const { sessionId } = created.json() as { sessionId: string };
  await op.server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'email=grace%40example.com',
  });
  const status = (await op.server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { standardLicenseKey: string };
  return { session: sessionId, key: status.standardLicenseKey };
}

async function updates({ op }: Context, query: string): Promise<LicenseUpdates> {
  const answer = await op.call(`/licenses/updates?${query}`);
  assert.is(answer.status, 200, answer.text);
  return answer.json() as LicenseUpdates;
}

async function releasesOf(context: Context): Promise<void> {
  await publishAt(context, '2.5.0', '2026-06-01T09:00:00Z');
  await publishAt(context, '2.6.0', '2026-11-01T09:00:00Z');
}

test('by key: each stored release, highest first, covered within the window, a bug fix of the fallback line, or a paid upgrade, and why', async (context) => {
  await releasesOf(context);
  const { session, key } = await buyAt(context, '2026-11-21T12:00:00Z');
  await publishAt(context, '2.6.1', '2027-03-01T09:00:00Z');
  await publishAt(context, '2.6.2', '2027-12-01T09:00:00Z');
  await publishAt(context, '2.7.0', '2028-01-15T09:00:00Z');
  assert.is((await context.op.call('/releases/2.6.2/pull', { method: 'POST' })).status, 200);
  const answer = await updates(context, `key=${encodeURIComponent(key.toLowerCase())}`);
  assert.equal(answer, {
    channel: 'stable',
    licenses: 'valid',
    keys: [{ session, product: 'standard', key, state: 'valid', issuedOn: '2026-11-21', windowDays: 365, updatesUntil: '2027-11-21T00:00:00.000Z' }],
    updatesUntil: '2027-11-21T00:00:00.000Z',
    fallbackLine: '2.6',
    baseline: '2.4.1',
    releases: [
      {
        version: '2.7.0',
        publishedAt: '2028-01-15T09:00:00.000Z',
        pulled: false,
        verdict: 'paid_upgrade',
        reason: 'published 2028-01-15, after the window (until 2027-11-21), not of the fallback line 2.6: a paid upgrade',
      },
      {
        version: '2.6.2',
        publishedAt: '2027-12-01T09:00:00.000Z',
        pulled: true,
        verdict: 'fallback_bug_fix',
        reason:
          'published 2027-12-01, after the window (until 2027-11-21), a bug fix of 2.6, the line of 2.6.1, the newest release covered; pulled, so no app is offered it',
      },
      {
        version: '2.6.1',
        publishedAt: '2027-03-01T09:00:00.000Z',
        pulled: false,
        verdict: 'covered',
        reason: 'published 2027-03-01, within the window (updates until 2027-11-21)',
      },
      {
        version: '2.6.0',
        publishedAt: '2026-11-01T09:00:00.000Z',
        pulled: false,
        verdict: 'covered',
        reason: 'published 2026-11-01, within the window (updates until 2027-11-21)',
      },
      {
        version: '2.5.0',
        publishedAt: '2026-06-01T09:00:00.000Z',
        pulled: false,
        verdict: 'covered',
        reason: 'published 2026-06-01, within the window (updates until 2027-11-21)',
      },
    ],
  });
  assert.equal(await updates(context, `session=${session}`), answer, 'by its order: the same key');
});

test("a channel judges its own releases and those of every more stable one: a beta app's fallback line is beta's", async (context) => {
  await releasesOf(context);
  const { key } = await buyAt(context, '2026-11-21T12:00:00Z');
  context.op.server.clock.set(at('2027-01-10T09:00:00Z'));
  const json = { version: '2.7.0', msiUrl: 'https://downloads.example.com/app-2.7.0.msi', rolloutPercent: 100, channel: 'beta' };
  assert.is((await context.op.call('/releases', { method: 'POST', json })).status, 201);
  await publishAt(context, '2.6.1', '2027-12-01T09:00:00Z');
  const stable = await updates(context, `key=${encodeURIComponent(key)}`);
  assert.equal([stable.channel, stable.fallbackLine, stable.releases.map((r) => `${r.version} ${r.verdict}`)], ['stable', '2.6', [
    '2.6.1 fallback_bug_fix',
    '2.6.0 covered',
    '2.5.0 covered',
  ]]);
  const beta = await updates(context, `key=${encodeURIComponent(key)}&channel=beta`);
  assert.equal([beta.channel, beta.fallbackLine, beta.releases.map((r) => `${r.version} ${r.verdict}`)], ['beta', '2.7', [
    '2.7.0 covered',
    '2.6.1 paid_upgrade',
    '2.6.0 covered',
    '2.5.0 covered',
  ]]);
  const unknown = await context.op.call(`/licenses/updates?key=${encodeURIComponent(key)}&channel=nightly`);
  assert.equal([unknown.status, (unknown.json() as { code: string }).code], [404, 'channel_not_found']);
});

test("by email: the buyer's keys as one installation, which takes the latest window; a revoked order's key does not count", async (context) => {
  await releasesOf(context);
  const first = await buyAt(context, '2026-11-21T12:00:00Z');
  const second = await buyAt(context, '2027-06-01T12:00:00Z');
  await publishAt(context, '2.7.0', '2028-01-15T09:00:00Z');
  const both = await updates(context, 'email=Grace%40Example.com');
  assert.equal(both.keys.map((k) => [k.session, k.updatesUntil]), [[second.session, '2028-05-31T00:00:00.000Z'], [first.session, '2027-11-21T00:00:00.000Z']]);
  assert.equal([both.updatesUntil, both.fallbackLine, both.releases.map((r) => r.verdict)], ['2028-05-31T00:00:00.000Z', '2.7', [
    'covered',
    'covered',
    'covered',
  ]]);
  assert.is((await context.op.call(`/orders/${second.session}/revoke`, { method: 'POST', json: { reason: 'refunded by phone' } })).status, 200);
  const revokedOne = await updates(context, 'email=grace%40example.com');
  assert.equal(revokedOne.keys.map((k) => k.state), ['revoked', 'valid']);
  assert.equal([revokedOne.updatesUntil, revokedOne.releases.map((r) => r.verdict)], ['2027-11-21T00:00:00.000Z', ['paid_upgrade', 'covered', 'covered']]);
});

test('a revoked license covers nothing: every release is revoked, with the cause', async (context) => {
  await releasesOf(context);
  const { session, key } = await buyAt(context, '2026-11-21T12:00:00Z');
  await context.op.call(`/orders/${session}/revoke`, { method: 'POST' });
  const answer = await updates(context, `key=${encodeURIComponent(key)}`);
  assert.equal([answer.licenses, answer.updatesUntil], ['revoked', '2027-11-21T00:00:00.000Z']);
  assert.equal(answer.releases.map((r) => [r.version, r.verdict, r.reason]), [
    ['2.6.0', 'revoked', 'the licenses are revoked (operator): no release is covered'],
    ['2.5.0', 'revoked', 'the licenses are revoked (operator): no release is covered'],
  ]);
});

test('a lifetime key covers every release; no key, no order and two ways of naming it are refused with the API error body', async (context) => {
  const lifetime = await startInProcessOperator();
  const other = { op: lifetime };
  await releasesOf(other);
  const { key } = await buyAt(other, '2026-11-21T12:00:00Z');
  const answer = await updates(other, `key=${encodeURIComponent(key)}`);
  assert.equal([answer.updatesUntil, answer.fallbackLine, answer.keys[0]!.windowDays], [null, null, null]);
  assert.equal(answer.releases.map((r) => [r.verdict, r.reason]), [['covered', 'sold with lifetime updates'], ['covered', 'sold with lifetime updates']]);
  const refused = await context.op.call('/licenses/updates?email=nobody%40example.com');
  assert.equal([refused.status, refused.json()], [404, {
    code: 'license_not_found',
    message: 'No license key is held by a paid order of "nobody@example.com".',
    resolution:
      "Find the order with GET /orders?email=<the buyer's email>; a key is matched as issued (any case for version 2, spaces and line breaks ignored).",
  }]);
  const two = await context.op.call('/licenses/updates?email=a%40b.c&session=cs_1');
  assert.equal([two.status, (two.json() as { message: string }).message], [400, 'Give one of the query parameters "key", "email" or "session".']);
});

test.run();
