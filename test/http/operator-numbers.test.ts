/**
 * The Numbers page over real sockets, as a browser without JavaScript: counts made by GET /version and
 * GET /download on two days appear in the per-day tables and the sums with their exact values; the
 * 365-day range; a `days` the API refuses shows its message and resolution. Injected clock (the test
 * server starts at 2026-11-21 12:00 UTC).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtmlText } from '../../core/formats/html-text.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { signIn } from '../_pages.ts';
import { exampleContent } from '../_setup.ts';

const test = suite('the Numbers page over HTTP');
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)';
let running: InProcessOperator;

test.before.each(async () => {
  running = await startInProcessOperator({ usageSources: ['homepage'] });
});
test.after.each(() => running.close());

const get = (path: string, agent = WINDOWS) => running.server.request({ path, headers: { 'user-agent': agent } });

/** The rows of the table with this id, each as its cells' text (tags removed). */
function rowsOf(page: string, id: string): string[][] {
  const table = new RegExp(`<table id="${id}"[^>]*>([\\s\\S]*?)</table>`).exec(page);
  if (!table) throw new Error(`no table ${id}`);
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(table[1]!)![1]!;
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, ''))
  );
}

const captionOf = (page: string, id: string) => new RegExp(`<table id="${id}"[^>]*><caption>([^<]*)</caption>`).exec(page)?.[1];

test('counts of GET /version and GET /download on two days, in the tables with their exact values', async () => {
  running.server.clock.advance(-24 * 3600_000);
  for (let i = 0; i < 3; i++) assert.is((await get('/api/v1/version')).status, 200);
  assert.is((await get('/api/v1/download?source=homepage')).status, 302);
  running.server.clock.advance(24 * 3600_000);
  assert.is((await get('/api/v1/version', MAC)).status, 200);
  assert.is((await get('/api/v1/download')).status, 302);
  assert.is((await get('/api/v1/download?source=elsewhere', MAC)).status, 302);

  const session = await signIn(running.send);
  const answer = await session.get('/pages/numbers');
  assert.is(answer.status, 200);
  assert.is(answer.headers['content-type'], 'text/html; charset=utf-8');
  const page = answer.text;
  assert.match(page, '<a href="/pages/numbers" aria-current="page">Numbers</a>');
  assert.match(page, '<a href="/pages/numbers?days=30" aria-current="true">Last 30 days</a>');
  assert.match(page, '<p class="meta">From 2026-10-23 to 2026-11-21 (UTC days, today included).</p>');
  assert.match(
    page,
    '<dt>Downloads</dt><dd>3</dd></div><div><dt>Update checks</dt><dd>4</dd></div><div><dt>Paid orders</dt><dd>0</dd></div><div><dt>Feedback</dt><dd>0</dd>',
  );
  assert.match(page, '<table id="orders-revenue" class="breakdown"><caption>Revenue</caption>');

  const downloads = rowsOf(page, 'downloads-table');
  assert.is(downloads.length, 30);
  assert.equal(downloads[0], ['2026-10-23', '0']);
  assert.equal(downloads.slice(-2), [['2026-11-20', '1'], ['2026-11-21', '2']]);
  assert.equal(rowsOf(page, 'update-checks-table').slice(-2), [['2026-11-20', '3'], ['2026-11-21', '1']]);
  assert.is(captionOf(page, 'downloads-table'), 'Downloads per day (UTC)');
  assert.match(page, '<details class="numbers" open><summary>Downloads per day as a table</summary>');

  assert.equal(rowsOf(page, 'downloads-release'), [['2.4.1', '3', '100%']]);
  assert.equal(rowsOf(page, 'downloads-source'), [['homepage', '1', '33%'], ['No source', '1', '33%'], ['Other (not in the config file)', '1', '33%']]);
  assert.equal(rowsOf(page, 'downloads-platform'), [['Windows', '2', '67%'], ['Other', '1', '33%']]);
  assert.equal(rowsOf(page, 'update-checks-platform'), [['Windows', '3', '75%'], ['Other', '1', '25%']]);
  assert.equal(rowsOf(page, 'feedback-type'), [['None in this range.']]);

  // The charts: an accessible name and description; one bar per day with a count (none drawn for zero).
  assert.match(page, '<svg class="chart" viewBox="0 0 640 220" role="img" aria-labelledby="downloads-title downloads-desc" focusable="false">');
  assert.match(page, '<title id="downloads-title">Downloads per day</title>');
  assert.match(page, '<desc id="downloads-desc">3 in 30 days from 2026-10-23 to 2026-11-21, most on 2026-11-21 (2).</desc>');
  const downloadsChart = /<svg[^>]*aria-labelledby="downloads-title[\s\S]*?<\/svg>/.exec(page)![0];
  assert.is(downloadsChart.match(/<rect class="bar"/g)?.length, 2);
  const feedbackChart = /<svg[^>]*aria-labelledby="feedback-title[\s\S]*?<\/svg>/.exec(page)![0];
  assert.match(feedbackChart, 'text-anchor="middle">None in this range</text>');
  assert.not.match(feedbackChart, '<rect');
  assert.not.match(page, 'style=', 'nothing the Content-Security-Policy would refuse');
});

test('refunds and disputes on the simulator are their own figures; the revenue net of them, in GET /stats and on the page', async () => {
  await running.close();
  running = await startInProcessOperator({ simulator: { offer: exampleContent().offer } });
  const buy = async (product: string) => {
    const created = await running.server.request({
      method: 'POST',
      path: '/api/v1/checkout/create',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product }),
    });
    const { sessionId } = created.json() as { sessionId: string };
    assert.is((await running.server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay` })).status, 303);
    return sessionId;
  };
  const press = (id: string, action: string) => running.server.request({ method: 'POST', path: `/checkout/simulator/${id}/${action}` });
  const kept = await buy('standard');
  const refunded = await buy('standard');
  const won = await buy('plus_bundle');
  await press(refunded, 'refund');
  await press(won, 'dispute');
  await press(won, 'dispute-won');
  const disputed = await buy('plus_addon');
  await press(disputed, 'dispute');
  const orders = ((await running.call('/stats')).json() as { orders: Record<string, unknown> }).orders;
  const offer = exampleContent().offer;
  const sum = (...amounts: string[]) => amounts.reduce((a, b) => (Number(a) + Number(b)).toFixed(2));
  assert.equal([orders['total'], orders['refunded'], orders['disputed']], [4, 1, 2]);
  assert.equal(orders['revenue'], { USD: sum(offer.licensePrice, offer.licensePrice, offer.plusBundlePrice!, offer.plusAddonPrice!) });
  assert.equal(orders['netRevenue'], { USD: sum(offer.licensePrice, offer.plusBundlePrice!) }, 'without the refund and the open dispute; the won dispute kept');
  const page = (await (await signIn(running.send)).get('/pages/numbers')).text;
  assert.match(page, '<dt>Feedback</dt><dd>0</dd></div><div><dt>Refunds</dt><dd>1</dd></div><div><dt>Disputes</dt><dd>2</dd>');
  assert.equal(rowsOf(page, 'orders-refunds'), [['Refunded in full', '1'], ['Disputed', '2']]);
  assert.equal(rowsOf(page, 'orders-net-revenue'), [['USD', sum(offer.licensePrice, offer.plusBundlePrice!)]]);
  assert.is(captionOf(page, 'orders-net-revenue'), 'Revenue net of refunds and disputes');
  assert.ok(kept);
});

test('the last 365 days: every day listed, the tables collapsed', async () => {
  assert.is((await get('/api/v1/download')).status, 302);
  const session = await signIn(running.send);
  const answer = await session.get('/pages/numbers?days=365');
  assert.is(answer.status, 200);
  assert.match(answer.text, '<a href="/pages/numbers?days=365" aria-current="true">Last 365 days</a>');
  assert.match(answer.text, '<p class="meta">From 2025-11-22 to 2026-11-21 (UTC days, today included).</p>');
  const downloads = rowsOf(answer.text, 'downloads-table');
  assert.is(downloads.length, 365);
  assert.equal(downloads.at(-1), ['2026-11-21', '1']);
  assert.match(answer.text, '<details class="numbers"><summary>Downloads per day as a table</summary>');
});

test('a range the API refuses shows its message and resolution; nothing else', async () => {
  const session = await signIn(running.send);
  for (const days of ['0', '366', 'week']) {
    const answer = await session.get(`/pages/numbers?days=${days}`);
    assert.is(answer.status, 200, days);
    const alert = /<div class="flash error" role="alert"><p>([^<]*)<\/p><p>([^<]*)<\/p><\/div>/.exec(answer.text);
    assert.ok(alert, `an alert for days=${days}`);
    assert.match(alert![1]!, 'days', days);
    assert.not.match(answer.text, '<svg', days);
  }
  const api = (await running.call('/stats?days=0')).json() as { message: string; resolution: string };
  const shown = (await session.get('/pages/numbers?days=0')).text;
  assert.match(shown, `<p>${escapeHtmlText(api.message)}</p><p>${escapeHtmlText(api.resolution)}</p>`);
});

test('without a session the page leads to the sign-in form', async () => {
  const answer = await running.call('/pages/numbers', { headers: {} });
  assert.is(answer.status, 303);
  assert.is(answer.headers['location'], '/pages/sign-in?next=%2Fpages%2Fnumbers');
});

test.run();
