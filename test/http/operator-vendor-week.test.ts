// deno-lint-ignore-file no-explicit-any -- the test walks parsed JSON documents of arbitrary shape
/**
 * What a vendor looked for in the back office (issue 33), in process (app.handle) on memory, PGlite and PostgreSQL:
 * orders found by a pasted license key and by part of the buyer's name; the paid orders as CSV for accounting
 * (amount, state, refunded amount; injection-safe) on the API and the Orders page; the Inbox searched by text
 * or email; one bulk "mark handled" with one audit row, and a repeated mark (bulk or single) with none.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { signIn } from '../_pages.ts';
import { exampleContent } from '../_setup.ts';
import { ALL_TARGETS, type OpenStorage } from '../storage/_targets.ts';
import { closeTestDatabases } from '../_databases.ts';

interface Context {
  opened: OpenStorage;
  running: InProcessOperator;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A checkout paid on the simulator's page by `name`; its session id and standard key. */
async function buy({ running }: Context, product: string, name: string): Promise<{ id: string; key: string }> {
  const { server } = running;
  const created = await server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ product }),
  });
  const { sessionId } = created.json() as { sessionId: string };
  const body = new URLSearchParams({ email: 'buyer@example.com', name, country: 'gb' }).toString();
  assert.is((await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: FORM, body })).status, 303);
  const status = (await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { standardLicenseKey: string };
  return { id: sessionId, key: status.standardLicenseKey };
}

const json = async (running: InProcessOperator, path: string, init?: Parameters<InProcessOperator['call']>[1]) => {
  const answer = await running.call(path, init);
  return { status: answer.status, body: answer.json() as any };
};
const sessions = (body: { orders: { session: string }[] }) => body.orders.map((o) => o.session);
const auditActions = async (running: InProcessOperator) =>
  ((await json(running, '/audit')).body.entries as { action: string; target: string }[]).map((e) => `${e.action} ${e.target}`);

for (const target of ALL_TARGETS) {
  const test = suite<Context>(`a vendor's week in the back office on ${target.name}`, {} as Context);
  test.before.each(async (c) => {
    c.opened = await target.open();
    c.running = await startInProcessOperator({ storage: c.opened.storage, simulator: { offer: exampleContent().offer } });
  });
  test.after.each(async (c) => {
    await c.running.close();
    await c.opened.close();
  });
  test.after(closeTestDatabases);

  test('orders: a pasted key finds its order; part of a name finds the buyers, any case', async (c) => {
    const ada = await buy(c, 'standard', 'Ada Lovelace');
    c.running.server.clock.advance(1000);
    const charles = await buy(c, 'plus_bundle', 'Charles Babbage');
    const pasted = `\n  ${ada.key.slice(0, 30)}\r\n${ada.key.slice(30)}  \n`;
    assert.equal(sessions((await json(c.running, `/orders?key=${encodeURIComponent(pasted)}`)).body), [ada.id]);
    assert.equal(sessions((await json(c.running, `/orders?key=${encodeURIComponent(ada.key.toLowerCase())}`)).body), [ada.id], 'a version-2 key in any case');
    assert.equal(sessions((await json(c.running, '/orders?key=AAAAA-BBBBB')).body), []);
    assert.equal(sessions((await json(c.running, '/orders?name=LOVE')).body), [ada.id]);
    assert.equal(sessions((await json(c.running, '/orders?name=%20a%20')).body), [charles.id, ada.id], 'spaces around it ignored, newest first');
    assert.equal(sessions((await json(c.running, '/orders?name=babbage&email=BUYER@example.com')).body), [charles.id]);
    const blank = await json(c.running, '/orders?name=%20');
    assert.equal([blank.status, blank.body.code, blank.body.message], [400, 'invalid_request', 'Field "name" must not be empty.']);

    const page = await signIn(c.running.send);
    const byKey = await page.get(`/pages/orders?find=${encodeURIComponent(pasted)}`);
    assert.match(byKey.text, `<a href="/pages/orders?order=${ada.id}">${ada.id}</a>`);
    assert.match(byKey.text, 'paid ');
    assert.match(byKey.text, ' · 49.00 USD</p>');
    assert.not.match(byKey.text, charles.id);
    const byName = await page.get('/pages/orders?find=babb');
    assert.match(byName.text, `<h2>Orders of babb (1)</h2>`);
    assert.match(byName.text, `<a href="/pages/orders?order=${charles.id}">${charles.id}</a>`);
    assert.match(byName.text, 'value="babb"');
    assert.match((await page.get(`/pages/orders?order=${charles.id}`)).text, 'Amount: 64.00 USD</p>');
  });

  test('orders export: paid orders oldest first with amount, state and refunded amount, in pages; the CSV on the page is injection-safe', async (c) => {
    const { running } = c;
    const { clock } = running.server;
    const first = await buy(c, 'standard', '=HYPERLINK("http://x.test")');
    const firstAt = new Date(clock.now()).toISOString();
    clock.advance(60_000);
    const refunded = await buy(c, 'plus_bundle', 'Grace, "Amazing" Hopper');
    const refundedAt = new Date(clock.now()).toISOString();
    assert.is((await running.server.request({ method: 'POST', path: `/checkout/simulator/${refunded.id}/refund`, headers: FORM, body: '' })).status, 303);
    clock.advance(60_000);
    const revoked = await buy(c, 'standard', 'Rev Oked');
    const revokedAt = new Date(clock.now()).toISOString();
    assert.is((await running.call(`/orders/${revoked.id}/revoke`, { method: 'POST', json: { reason: 'fraud' } })).status, 200);

    const all = await json(running, '/orders/export');
    const row = (sessionId: string, paidAt: string, name: string, sku: string, amount: string, state: string, refundedAmount: string) => ({
      sessionId,
      paidAt,
      email: 'buyer@example.com',
      name,
      sku,
      amount,
      currency: 'USD',
      state,
      refundedAmount,
    });
    assert.equal(all, {
      status: 200,
      body: {
        entries: [
          row(first.id, firstAt, '=HYPERLINK("http://x.test")', 'standard', '49.00', 'paid', '0.00'),
          row(refunded.id, refundedAt, 'Grace, "Amazing" Hopper', 'plus_bundle', '64.00', 'refunded', '64.00'),
          row(revoked.id, revokedAt, 'Rev Oked', 'standard', '49.00', 'revoked', '0.00'),
        ],
        next: null,
      },
    });
    const one = await json(running, '/orders/export?limit=2');
    assert.equal(one.body.entries.map((r: { sessionId: string }) => r.sessionId), [first.id, refunded.id]);
    const rest = await json(running, `/orders/export?limit=2&after=${encodeURIComponent(one.body.next)}`);
    assert.equal([rest.body.entries.map((r: { sessionId: string }) => r.sessionId), rest.body.next], [[revoked.id], null]);
    const period = await json(running, `/orders/export?since=${refundedAt}&until=${revokedAt}`);
    assert.equal(period.body.entries.map((r: { sessionId: string }) => r.sessionId), [refunded.id], 'since included, until excluded');
    const bad = await json(running, '/orders/export?after=nonsense');
    assert.equal([bad.status, bad.body.code, bad.body.message], [400, 'invalid_request', 'Field "after" must be the next of the page before.']);

    const page = await signIn(running.send);
    const orders = await page.get('/pages/orders');
    assert.match(orders.text, '<form method="get" action="/pages/orders/export.csv" class="card" aria-label="Export orders">');
    const csv = await page.get('/pages/orders/export.csv');
    assert.equal([csv.status, csv.headers['content-type'], csv.headers['content-disposition']], [
      200,
      'text/csv; charset=utf-8',
      'attachment; filename="orders.csv"',
    ]);
    assert.is(
      csv.text,
      'sessionId,paidAt,email,name,sku,amount,currency,state,refundedAmount\r\n' +
        `${first.id},${firstAt},buyer@example.com,"'=HYPERLINK(""http://x.test"")",standard,49.00,USD,paid,0.00\r\n` +
        `${refunded.id},${refundedAt},buyer@example.com,"Grace, ""Amazing"" Hopper",plus_bundle,64.00,USD,refunded,64.00\r\n` +
        `${revoked.id},${revokedAt},buyer@example.com,Rev Oked,standard,49.00,USD,revoked,0.00\r\n`,
    );
    const day = refundedAt.slice(0, 10);
    const ofDay = await page.get(`/pages/orders/export.csv?from=${day}&to=${day}`);
    assert.is(ofDay.text.split('\r\n').length, 5, 'both UTC days included: the header and the 3 orders of that day');
    const refused = await page.get('/pages/orders/export.csv?from=someday');
    assert.equal([refused.status, refused.text], [
      400,
      'Field "since" must be an ISO 8601 timestamp such as 2026-11-01T00:00:00Z.\nFix the request body or query as the message says; /openapi.json describes every field.\n',
    ]);
  });

  test('inbox: search by text or email with the filters and pages; a bulk mark writes one audit row, a repeat none', async (c) => {
    const { running, opened } = c;
    const at = running.server.clock.now();
    const add = (description: string, email: string | null, type: 'bug_report' | 'review' = 'bug_report') =>
      opened.storage.intake.addFeedback({ type, description, email, appVersion: null, rating: type === 'review' ? 5 : null, receivedAt: at });
    await add('Crash on open', null);
    await add('Love it', 'Crash.Test@Example.com', 'review');
    await add('Slow export', 'someone@example.com');
    await add('CRASHES with .wk3', null);
    const found = await json(running, '/feedback?search=crash');
    assert.equal(found.body.entries.map((e: { description: string }) => e.description), ['CRASHES with .wk3', 'Love it', 'Crash on open']);
    const ids = found.body.entries.map((e: { id: number }) => e.id) as number[];
    assert.equal((await json(running, '/feedback?search=crash&type=review')).body.entries.map((e: { id: number }) => e.id), [ids[1]]);
    const paged = await json(running, '/feedback?search=crash&limit=2');
    assert.equal([paged.body.entries.length, paged.body.next], [2, ids[1]]);
    assert.equal((await json(running, `/feedback?search=crash&before=${paged.body.next}`)).body.entries.map((e: { id: number }) => e.id), [ids[2]]);

    // A single mark, repeated: one audit row.
    for (let i = 0; i < 2; i++) assert.is((await running.call(`/feedback/${ids[2]}/handled`, { method: 'POST', json: { handled: true } })).status, 200);
    assert.equal(await auditActions(running), [`feedback.handled ${ids[2]}`]);
    const bulk = await json(running, '/feedback/handled', { method: 'POST', json: { ids: [...ids, 999_999] } });
    assert.equal(bulk, { status: 200, body: { marked: [ids[1]!, ids[0]!].sort((a, b) => a - b), alreadyHandled: 1, notFound: 1 } });
    const again = await json(running, '/feedback/handled', { method: 'POST', json: { ids } });
    assert.equal(again.body, { marked: [], alreadyHandled: 3, notFound: 0 });
    assert.equal(await auditActions(running), ['feedback.handled_bulk 2 entries (of 4 listed)', `feedback.handled ${ids[2]}`]);
    const tooMany = await json(running, '/feedback/handled', { method: 'POST', json: { ids: Array.from({ length: 501 }, (_, i) => i + 1) } });
    assert.equal([tooMany.status, tooMany.body.code, tooMany.body.message], [400, 'invalid_request', 'Field "ids" must list at most 500 ids.']);
    assert.equal((await json(running, '/feedback?handled=false')).body.entries.map((e: { description: string }) => e.description), ['Slow export']);
  });

  test('the Inbox page: a search box, and "Mark all shown as handled" with its count, behind the CSRF token', async (c) => {
    const { running, opened } = c;
    for (const description of ['Crash on open', 'Fine', 'crash again']) {
      await opened.storage.intake.addFeedback({
        type: 'general',
        description,
        email: null,
        appVersion: null,
        rating: null,
        receivedAt: running.server.clock.now(),
      });
    }
    const page = await signIn(running.send);
    const searched = await page.get('/pages/inbox?search=+CRASH+');
    assert.match(searched.text, '<input type="text" id="filter-search" name="search" value="CRASH">');
    assert.equal([...searched.text.matchAll(/aria-labelledby="entry-(\d+)"/g)].map((m) => Number(m[1])), [3, 1]);
    assert.match(searched.text, '<a href="/pages/inbox/export.csv?search=CRASH">Export these as CSV</a>');
    assert.match(searched.text, '<input type="hidden" name="ids" value="3,1">');
    assert.match(searched.text, '<button type="submit">Mark all 2 shown as handled</button>');
    const forged = await running.call('/pages/inbox/handled', { method: 'POST', headers: { ...FORM, cookie: page.cookie }, json: undefined });
    assert.is(forged.status, 403);
    const marked = await page.post('/pages/inbox/handled', { ids: '3,1', back: '?search=CRASH' });
    assert.equal([marked.status, marked.headers['location']], [303, '/pages/inbox?search=CRASH']);
    const after = await page.get('/pages/inbox?search=CRASH');
    assert.match(after.text, 'Marked 2 entries handled.');
    assert.match(after.text, 'No feedback matches these filters.');
    assert.not.match(after.text, 'shown as handled');
    const repeated = await page.post('/pages/inbox/handled', { ids: '3,1' });
    assert.is(repeated.status, 303);
    assert.match((await page.get('/pages/inbox')).text, 'Marked 0 entries handled (2 handled already).');
    assert.equal(await auditActions(running), ['feedback.handled_bulk 2 entries (of 2 listed)']);
  });

  test.run();
}
