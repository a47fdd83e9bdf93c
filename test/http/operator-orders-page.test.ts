/**
 * The Orders page over real sockets, as a browser without JavaScript: find an order by the buyer's
 * email, open it with its keys, revoke it with a reason (GET /api/v1/checkout/status then shows no keys),
 * reinstate and upgrade it, reconcile; forms without their CSRF token refused and changing nothing.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { form, signIn } from '../_pages.ts';

const test = suite('the Orders page over HTTP');
let running: InProcessOperator;

test.before.each(async () => {
  running = await startInProcessOperator();
});
test.after.each(() => running.close());

/** A checkout of `product` paid on the simulator's page by Grace (or the buyer with `email`). */
async function buy(product: string, email = 'Grace@Example.com'): Promise<string> {
  const { server } = running;
  const created = await server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ product }),
  });
  const { sessionId } = created.json() as { sessionId: string };
  const body = new URLSearchParams({ email, name: 'Grace Hopper', country: 'us' }).toString();
  const paid = await server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  assert.is(paid.status, 303);
  return sessionId;
}
const status = async (id: string) =>
  (await running.server.request({ path: `/api/v1/checkout/status?session_id=${id}` })).json() as Record<string, string | null>;
const audit = async () => ((await running.call('/audit')).json() as { entries: { action: string; target: string }[] }).entries.map((e) => [e.action, e.target]);

test('an order found by email, opened with its keys, revoked with a reason: the public status shows no keys', async () => {
  const id = await buy('standard');
  const keys = await status(id);
  assert.ok(keys['standardLicenseKey']);
  const session = await signIn(running.send);
  const found = await session.get('/pages/orders?find=grace%40example.com');
  assert.is(found.status, 200);
  assert.match(found.text, '<h2>Orders of grace@example.com (1)</h2>');
  assert.match(found.text, `<h3 id="order-${id}" class="wrap"><a href="/pages/orders?order=${id}">${id}</a></h3>`);
  assert.match(found.text, '<span class="badge">standard</span> <span class="badge">paid</span> <span class="badge">Licenses valid</span>');

  const shown = await session.get(`/pages/orders?order=${id}`);
  assert.match(shown.text, `<li><span class="badge">standard</span> <code>${keys['standardLicenseKey']}</code> · valid</li>`);
  assert.match(shown.text, '<label for="revoke-reason">Reason to revoke (optional)</label>');
  assert.match(shown.text, 'Upgrade to Plus</button>');

  const revoked = await session.post(`/pages/orders/${id}/revoke`, { reason: 'chargeback by mail' });
  assert.is(revoked.status, 303);
  assert.is(revoked.headers['location'], `/pages/orders?order=${id}`);
  const after = await session.get(`/pages/orders?order=${id}`);
  assert.match(after.text, `<div class="flash done" role="status"><p>The licenses of ${id} are revoked.</p></div>`);
  assert.match(after.text, '<span class="badge strong">Licenses revoked (operator)</span>');
  assert.match(after.text, 'by the operator <time');
  assert.match(after.text, ': chargeback by mail</p>');
  assert.match(after.text, '<label for="reinstate-reason">Reason to reinstate (optional)</label>');
  assert.not.match(after.text, 'Upgrade to Plus');
  const publicStatus = await status(id);
  assert.is(publicStatus['standardLicenseKey'], null);
  assert.is(publicStatus['plusLicenseKey'], null);
  assert.equal(await audit(), [['order.revoked', `${id}: chargeback by mail`]]);
});

test("an order shows the updates its keys cover: each key's window, and each release with its verdict and why", async () => {
  running = await startInProcessOperator({
    updateWindows: { standard: { standard: 365 }, plus_addon: { plus: null }, plus_bundle: { standard: 365, plus: null } },
  });
  const { clock } = running.server;
  const publish = async (version: string, iso: string) => {
    clock.set(Date.parse(iso));
    const json = { version, msiUrl: `https://downloads.example.com/app-${version}.msi`, rolloutPercent: 100 };
    assert.is((await running.call('/releases', { method: 'POST', json })).status, 201);
  };
  await publish('2.6.0', '2026-11-01T09:00:00Z');
  clock.set(Date.parse('2026-11-21T12:00:00Z'));
  const id = await buy('plus_bundle');
  await status(id);
  await publish('2.6.1', '2027-12-01T09:00:00Z');
  await publish('2.7.0', '2028-01-15T09:00:00Z');
  const session = await signIn(running.send);
  const shown = await session.get(`/pages/orders?order=${id}`);
  assert.match(shown.text, '<h3 id="order-updates">Updates these keys cover</h3>');
  assert.match(shown.text, 'Lifetime updates: every release is covered. The baseline 2.4.1 is covered by every license.');
  assert.match(shown.text, '<li><span class="badge">standard</span> 365 days from 2026-11-21: updates until 2027-11-21</li>');
  assert.match(shown.text, '<li><span class="badge">plus</span> lifetime updates (issued 2026-11-21)</li>');
  assert.match(shown.text, '<tr><th scope="row">2.7.0</th><td>2028-01-15</td><td>Covered</td><td class="wrap">sold with lifetime updates</td></tr>');
  const standardOnly = await buy('standard');
  await status(standardOnly);
  const alone = await session.get(`/pages/orders?order=${standardOnly}`);
  assert.match(alone.text, 'Updates until 2029-01-14; after that, bug fixes of 2.7 only.');
  await running.call('/releases/2.7.0/pull', { method: 'POST' });
  const pulled = await session.get(`/pages/orders?order=${standardOnly}`);
  assert.match(pulled.text, '<tr><th scope="row">2.7.0 (pulled)</th><td>2028-01-15</td><td>Covered</td>');
  assert.match(pulled.text, 'Updates until 2029-01-14; after that, bug fixes of 2.6 only.');
});

test('mail off: the order shows what would have been sent, and "Mail the keys again" queues one more', async () => {
  const id = await buy('standard');
  const keys = await status(id);
  const session = await signIn(running.send);
  const shown = await session.get(`/pages/orders?order=${id}`);
  assert.match(shown.text, '<h3 id="order-mails">Mail to the buyer</h3>');
  assert.match(shown.text, 'Mail is off (SMTP_URL is not set): these messages are kept here and never sent.');
  assert.match(shown.text, '<span class="badge">Would have been sent</span> Your Legacy Sheet Converter license key · to Grace@Example.com');
  assert.match(shown.text, `${keys['standardLicenseKey']}`);
  assert.match(shown.text, 'Mail the keys again</button>');
  const resent = await session.post(`/pages/orders/${id}/resend`, {});
  assert.is(resent.status, 303);
  const after = await session.get(`/pages/orders?order=${id}`);
  assert.match(after.text, `<p>The keys of ${id} are queued to Grace@Example.com.</p>`);
  assert.match(after.text, 'Your Legacy Sheet Converter license keys · to Grace@Example.com');
  assert.equal(await audit(), [['order.mail_resent', id]]);
});

test('mail on: a failed mail is listed with its order and sent again from the page, once an hour', async () => {
  await running.close();
  running = await startInProcessOperator({ mail: { enabled: true } });
  const id = await buy('standard');
  assert.ok((await status(id))['standardLicenseKey'], 'fulfilled: its keys mail is written');
  const { storage, clock } = running.server;
  const [keysMail] = await storage.mail.claimDue(clock.now(), 60_000, 10);
  await storage.mail.recordAttempt(keysMail!.id, { at: clock.now(), error: '550 5.1.1 mailbox unavailable', sent: false, nextAttemptAt: null });
  const session = await signIn(running.send);
  const list = await session.get('/pages/orders');
  assert.match(list.text, '<h2 id="failed-mails">Failed mails (1)</h2>');
  assert.match(list.text, `<a href="/pages/orders?order=${id}">order</a> · 550 5.1.1 mailbox unavailable`);
  assert.match(list.text, `<form method="post" action="/pages/orders/mails/${keysMail!.id}/retry" class="row">`);
  const shown = await session.get(`/pages/orders?order=${id}`);
  assert.match(shown.text, '<span class="badge">Failed (given up)</span> Your Legacy Sheet Converter license key · to Grace@Example.com');
  assert.match(shown.text, 'Send again</button>');
  const retried = await session.post(`/pages/orders/mails/${keysMail!.id}/retry`, {});
  assert.is(retried.status, 303);
  const after = await session.get(`/pages/orders?order=${id}`);
  assert.match(after.text, `<p>Mail ${keysMail!.id} to Grace@Example.com is queued to be sent again.</p>`);
  assert.match(after.text, '<span class="badge">Not sent yet</span> Your Legacy Sheet Converter license key');
  assert.not.match(after.text, 'Failed mails');
  assert.equal(await audit(), [['mail.retried', `${keysMail!.id}: keys of ${id}`]]);
  // Failed again within the hour: the page says when it may be sent again.
  const [again] = await storage.mail.claimDue(clock.now(), 60_000, 10);
  await storage.mail.recordAttempt(again!.id, { at: clock.now(), error: '550 again', sent: false, nextAttemptAt: null });
  const refused = await session.post(`/pages/orders/mails/${keysMail!.id}/retry`, {});
  assert.is(refused.status, 303);
  const told = await session.get('/pages/orders');
  assert.match(
    told.text,
    `Mail ${keysMail!.id} was sent again at ${new Date(clock.now()).toISOString()}; it may be sent again from ${
      new Date(clock.now() + 3_600_000).toISOString()
    }.`,
  );
});

test('reinstate and upgrade to Plus from the page; the public status shows both keys', async () => {
  const id = await buy('standard');
  const session = await signIn(running.send);
  await session.post(`/pages/orders/${id}/revoke`, { reason: '' });
  await session.post(`/pages/orders/${id}/reinstate`, { reason: '' });
  assert.match((await session.get(`/pages/orders?order=${id}`)).text, `<p>The licenses of ${id} are reinstated.</p>`);
  await session.post(`/pages/orders/${id}/upgrade`, {});
  const upgraded = await session.get(`/pages/orders?order=${id}`);
  assert.match(upgraded.text, `<p>${id} has its Plus key.</p>`);
  const keys = await status(id);
  assert.ok(keys['plusLicenseKey']);
  assert.match(upgraded.text, `<code>${keys['plusLicenseKey']}</code> · valid`);
  assert.not.match(upgraded.text, 'Upgrade to Plus</button>');
  assert.equal(await audit(), [['order.upgraded', id], ['order.reinstated', id], ['order.revoked', id]]);
});

test('an unknown order and a refused action show the API message; reconcile fulfils a paid order without keys and says so', async () => {
  const id = await buy('standard');
  const session = await signIn(running.send);
  const unknown = await session.get('/pages/orders?order=cs_nope');
  assert.match(unknown.text, '<div class="flash error" role="alert"><p>No checkout session has id &#34;cs_nope&#34;.</p>');
  await session.post('/pages/orders/cs_nope/revoke', { reason: 'x' });
  assert.match(
    (await session.get('/pages/orders?order=cs_nope')).text,
    '<div class="flash error" role="alert"><p>No checkout session has id &#34;cs_nope&#34;.</p>',
  );
  const none = await session.get('/pages/orders?find=nobody%40example.com');
  assert.match(none.text, 'No paid order matches.');

  const reconciled = await session.post('/pages/orders/reconcile', {});
  assert.is(reconciled.headers['location'], '/pages/orders');
  const since = new Date(running.server.clock.now() - 7 * 86_400_000).toISOString();
  assert.match(
    (await session.get('/pages/orders')).text,
    `<div class="flash done" role="status"><p>Reconciled since ${since}: 1 paid at the provider, fulfilled now: ${id}; 0 already fulfilled, 0 not created here.</p></div>`,
  );
  assert.match((await session.get('/pages/orders')).text, `<h3 id="order-${id}" class="wrap">`);
});

test("the buyer's email is a mailto: link in the list and on the order, escaped in the address and the text", async () => {
  const email = "o'hara&co?x#%@example.com";
  const id = await buy('standard', email);
  const session = await signIn(running.send);
  const link = `<a href="mailto:o&#39;hara%26co%3Fx%23%25@example.com">o&#39;hara&#38;co?x#%@example.com</a>`;
  assert.match((await session.get('/pages/orders')).text, `<p class="description">${link} · Grace Hopper · US`);
  assert.match((await session.get(`/pages/orders?order=${id}`)).text, `<p class="description">Buyer: ${link} · Grace Hopper · US`);
});

test('an order form without its CSRF token is refused (403) and revokes nothing', async () => {
  const id = await buy('standard');
  const session = await signIn(running.send);
  for (const fields of [{ reason: 'x' }, { reason: 'x', csrf: 'y'.repeat(43) }]) {
    const { body, headers } = form(fields);
    const forged = await running.send({ method: 'POST', path: `/pages/orders/${id}/revoke`, body, headers: { ...headers, cookie: session.cookie } });
    assert.is(forged.status, 403);
    assert.match(forged.text, 'This form did not come from a page of your session, so nothing was changed.');
  }
  assert.ok((await status(id))['standardLicenseKey']);
  assert.equal(await audit(), []);
});

test.run();
