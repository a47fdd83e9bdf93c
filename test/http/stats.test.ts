/**
 * GET /stats on the operator listener over real sockets: update checks and downloads counted by day,
 * release, source (only configured ones by name) and platform, feedback by day, type and rating; counts
 * written by the app in batches and read after this instance's latest. Injected clock.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { exampleContent } from '../_setup.ts';

const test = suite('operator stats');
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)';
let running: InProcessOperator;

test.before.each(async () => {
  // The simulator "charges" the offer's prices, as the server wires it.
  running = await startInProcessOperator({ usageSources: ['homepage', 'blog'], simulator: { offer: exampleContent().offer } });
});
test.after.each(() => running.close());

const get = (path: string, agent: string) => running.server.request({ path, headers: { 'user-agent': agent } });
/** An app on the update files, install id number `n`, says which version it runs. */
const ping = (version: string, n: number) =>
  running.server.request({
    method: 'POST',
    path: '/api/v1/installs',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'stable', version, installId: Buffer.alloc(16, n).toString('base64url') }),
  });
const feedback = (body: Record<string, unknown>) =>
  running.server.request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('two days of update checks, downloads and feedback, summed and by day', async () => {
  // 2026-11-20 (the clock starts at 2026-11-21 12:00 UTC).
  running.server.clock.advance(-24 * 3600_000);
  for (let i = 0; i < 3; i++) assert.is((await get('/api/v1/version', WINDOWS)).status, 200);
  assert.is((await get('/api/v1/download?source=homepage', WINDOWS)).status, 302);
  assert.is((await feedback({ type: 'review', description: 'Great', rating: 5 })).status, 201);
  for (const n of [1, 2, 1]) assert.is((await ping('2.4.1', n)).status, 204);
  // 2026-11-21: a new release for everyone, a source nobody configured, a Mac.
  running.server.clock.advance(24 * 3600_000);
  await running.server.storage.change((tx) =>
    tx.releases.publishRelease({
      version: '2.5.0',
      msiUrl: 'https://downloads.example.com/2.5.0.msi',
      notesUrl: null,
      rolloutBasisPoints: 10000,
      publishedAt: running.server.clock.now(),
    })
  );
  running.server.clock.advance(1000);
  assert.is((await get('/api/v1/version', WINDOWS)).status, 200);
  assert.is((await get('/api/v1/version', MAC)).status, 200);
  // Two apps on the files moved to 2.5.0, one is still on 2.4.1: by install id, never added to the checks by address.
  for (const [version, n] of [['2.5.0', 1], ['2.5.0', 2], ['2.4.1', 3], ['2.5.0', 1]] as const) assert.is((await ping(version, n)).status, 204);
  assert.is((await get('/api/v1/download?source=spam-123', WINDOWS)).status, 302);
  assert.is((await get('/api/v1/download', MAC)).status, 302);
  assert.is((await get('/api/v1/download?source=blog', WINDOWS)).status, 302);
  assert.is((await feedback({ type: 'bug_report', description: 'Crash' })).status, 201);
  assert.is((await feedback({ type: 'review', description: 'Meh', rating: 3 })).status, 201);
  for (const product of ['standard', 'plus_bundle', 'standard']) {
    const created = await running.server.request({
      method: 'POST',
      path: '/api/v1/checkout/create',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product }),
    });
    const { sessionId } = created.json() as { sessionId: string };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    assert.is((await running.server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: form, body: '' })).status, 303);
  }

  const answer = await running.call('/stats?days=2');
  assert.is(answer.status, 200);
  assert.equal(answer.json(), {
    from: '2026-11-20',
    to: '2026-11-21',
    downloads: {
      total: 4,
      days: [
        { day: '2026-11-20', count: 1 },
        { day: '2026-11-21', count: 3 },
      ],
      release: { '2.5.0': 3, '2.4.1': 1 },
      source: { blog: 1, homepage: 1, none: 1, other: 1 },
      platform: { windows: 3, other: 1 },
    },
    updateChecks: {
      total: 5,
      days: [
        { day: '2026-11-20', count: 3 },
        { day: '2026-11-21', count: 2 },
      ],
      release: { '2.4.1': 3, '2.5.0': 2 },
      platform: { windows: 4, other: 1 },
    },
    orders: {
      total: 3,
      days: [
        { day: '2026-11-20', count: 0 },
        { day: '2026-11-21', count: 3 },
      ],
      product: { standard: 2, plus_bundle: 1 },
      revenue: { USD: '162.00' },
      refunded: 0,
      disputed: 0,
      netRevenue: { USD: '162.00' },
    },
    feedback: {
      total: 3,
      days: [
        { day: '2026-11-20', count: 1 },
        { day: '2026-11-21', count: 2 },
      ],
      type: { review: 2, bug_report: 1 },
      rating: { '3': 1, '5': 1, none: 1 },
    },
    // No check named its installed version (no product token) and no feedback its appVersion; installs are
    // distinct clients a day (issue 42): every check here comes from one address, one install a day.
    versions: {
      newest: { version: '2.5.0', share: null, day: null, installIdShare: 66.7, installIdDay: '2026-11-21' },
      installed: { none: 2 },
      installIds: { '2.4.1': 3, '2.5.0': 2 },
      reviews: { none: { count: 2, average: 4 } },
      bugReports: { none: 1 },
      days: [
        {
          day: '2026-11-20',
          installed: { none: 1 },
          newestShare: null,
          installIds: { '2.4.1': 2 },
          newestInstallIdShare: 0,
          reviews: { none: { count: 1, average: 5 } },
          bugReports: {},
        },
        {
          day: '2026-11-21',
          installed: { none: 1 },
          newestShare: null,
          installIds: { '2.5.0': 2, '2.4.1': 1 },
          newestInstallIdShare: 66.7,
          reviews: { none: { count: 1, average: 3 } },
          bugReports: { none: 1 },
        },
      ],
    },
    mail: { sent: 0, failed: 0, pending: 0 },
    requestersTold: 0,
  });
  const yesterday = (await running.call('/stats?days=1')).json() as { downloads: { total: number }; from: string };
  assert.equal([yesterday.from, yesterday.downloads.total], ['2026-11-21', 3]);
});

test('days out of range is a clear 400', async () => {
  for (const days of ['0', '366', 'week']) {
    const answer = await running.call(`/stats?days=${days}`);
    assert.is(answer.status, 400, days);
    assert.is((answer.json() as { code: string }).code, 'invalid_request');
  }
});

test.run();
