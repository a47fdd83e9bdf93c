/**
 * Requesters told when their request ships (core/mail/shipped-requests.ts), in process on memory storage:
 * one mail per linked request with an address once its feature's release is live for everyone (never at
 * 10 %), never twice (a pull and a restore, a second sweep), not to an address that unsubscribed (POST
 * /api/v1/unsubscribe, one click), not for a feature switched off, not at all with the global switch off;
 * a link to a merged feature is told with the feature it was merged into; stats count them.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { operateOk, OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp, type TestAppOptions } from '../_setup.ts';

const test = suite('requesters told when their request ships');
const MINUTE = 60_000;
const MSI = 'https://downloads.example.com/LegacySheetConverter-2.6.0-x64.msi';
const NOTES = 'https://www.example.com/releases/2.6.0';

/** An operator change that must succeed: its body. */
const operate = (t: TestApp, method: string, target: string, json?: unknown) => operateOk(t.app, method, target, json);

const submit = (t: TestApp, description: string, email?: string) =>
  t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/feedback', json: { description, type: 'feature_request', ...(email ? { email } : {}) } }));

/**
 * Requests 1 (ann) and 2 (no address) ask for feature 3, request 3 (bo) for feature 5; 2.6.0 ramps 10 ->
 * 100 % an hour after it is published, and feature 3 ships in it.
 */
async function setUp(options: TestAppOptions = {}): Promise<TestApp> {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN, ...options });
  await submit(t, 'Charts in .wk3 files please', 'ann@example.com');
  await submit(t, 'wk3 charts');
  await submit(t, 'Lotus charts too', 'bo@example.com');
  await operate(t, 'POST', '/feedback/feature', { ids: [1, 2], featureId: 3 });
  await operate(t, 'PUT', '/feedback/3/feature', { featureId: 5 });
  await operate(t, 'POST', '/releases', { version: '2.6.0', msiUrl: MSI, notesUrl: NOTES, rolloutPercent: 10, ramp: { steps: [10, 100], everyMinutes: 60 } });
  await operate(t, 'PATCH', '/roadmap/3', { release_version: '2.6.0' });
  return t;
}

const shippedMails = async (t: TestApp) => (await t.storage.mail.list({ limit: 50 })).filter((m) => m.kind === 'shipped').reverse();

test('told once when the release reaches 100 %: not at 10 %, not again after a pull and a restore', async () => {
  const t = await setUp();
  assert.is(await t.app.processShippedRequests(), 0, 'a staged release tells nobody');
  t.clock.advance(60 * MINUTE);
  assert.is(await t.app.processShippedRequests(), 1);
  assert.is(await t.app.processShippedRequests(), 0);
  const [mail, ...others] = await shippedMails(t);
  assert.equal(others, []);
  const token = /unsubscribe\?token=([A-Za-z0-9_.-]+)/.exec(mail!.text)![1]!;
  assert.equal([mail!.cause, mail!.to, mail!.subject], ['shipped:1', 'ann@example.com', 'Batch conversion of whole folders: in Legacy Sheet Converter 2.6.0']);
  assert.is(
    mail!.text,
    'Hello,\n\nYou asked for "Batch conversion of whole folders" in Legacy Sheet Converter. It is in version 2.6.0, out for everyone now.\n\n' +
      'Pick a folder and convert every legacy spreadsheet in it, subfolders included.\n\n' +
      'Download: http://localhost:8080/api/v1/download?source=shipped-mail\nRelease notes: https://www.example.com/releases/2.6.0\n\n' +
      'You get this message once, because you left this address with your request (#1).\n' +
      `To get no more messages like this one: http://localhost:8080/api/v1/unsubscribe?token=${token}\n`,
  );
  assert.match(mail!.html, '<strong>Batch conversion of whole folders</strong>');
  assert.is(t.app.listUnsubscribe(mail!), `http://localhost:8080/api/v1/unsubscribe?token=${token}`);
  assert.is(t.app.listUnsubscribe({ kind: 'keys', to: 'ann@example.com' }), undefined);
  await operate(t, 'POST', '/releases/2.6.0/pull');
  await operate(t, 'POST', '/releases/2.6.0/restore');
  assert.is(await t.app.processShippedRequests(), 0, 're-shipped: told already');
  assert.is((await operate(t, 'GET', '/stats?days=1'))['requestersTold'], 1);
});

test('one click unsubscribes the address from every such mail; a GET only shows the button; a bad token is 400, an unknown one 404', async () => {
  const t = await setUp();
  t.clock.advance(60 * MINUTE);
  await t.app.processShippedRequests();
  const token = /unsubscribe\?token=([A-Za-z0-9_.-]+)/.exec((await shippedMails(t))[0]!.text)![1]!;
  const page = await t.app.handle(coreRequest({ path: '/api/v1/unsubscribe', query: `token=${token}` }));
  assert.is(page.status, 200);
  assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(bodyText(page), `<form method="post" action="/api/v1/unsubscribe?token=${token}"><button type="submit">Unsubscribe</button></form>`);
  assert.match(bodyText(page), 'telling ann@example.com that');
  assert.equal(await t.storage.shipping.unsubscribed(), [], 'a GET changes nothing');
  // RFC 8058: the mail client POSTs List-Unsubscribe=One-Click to the address.
  const oneClick = await t.app.handle(
    coreRequest({
      method: 'POST',
      path: '/api/v1/unsubscribe',
      query: `token=${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    }),
  );
  assert.is(oneClick.status, 200);
  assert.equal(bodyJson(oneClick), { unsubscribed: true, message: 'This address gets no more messages about shipped requests.' });
  assert.is(oneClick.headers['ratelimit-limit'], '120');
  const alias = await t.app.handle(coreRequest({ method: 'POST', path: '/api/unsubscribe', query: `token=${token}`, headers: { accept: 'text/html' } }));
  assert.match(bodyText(alias), 'This address gets no more messages about shipped requests.');
  assert.equal(await t.storage.shipping.unsubscribed(), ['ann@example.com']);
  // Another request of the same address ships later: no mail.
  await submit(t, 'And charts in .wk1', 'ANN@example.com');
  await operate(t, 'PUT', '/feedback/4/feature', { featureId: 3 });
  assert.is(await t.app.processShippedRequests(), 0);
  const forged = `${token.split('.')[0]!.slice(0, -2)}AA.${token.split('.')[1]}`;
  const unknown = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/unsubscribe', query: `token=${forged}` }));
  assert.is(unknown.status, 404);
  assert.is((bodyJson(unknown) as { code: string }).code, 'token_not_found');
  for (const query of ['token=nonsense', '']) {
    const refused = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/unsubscribe', query }));
    assert.is(refused.status, 400, query);
    assert.is((bodyJson(refused) as { code: string }).code, 'invalid_parameter');
  }
});

test('a merge tells the requesters of the duplicate with the feature it went into; a feature switched off tells nobody', async () => {
  const t = await setUp();
  await operate(t, 'POST', '/roadmap/5/merge', { into: 3 });
  assert.equal(await operate(t, 'PUT', '/roadmap/3/requester-mails', { enabled: false }), { id: 3, enabled: false });
  t.clock.advance(60 * MINUTE);
  assert.is(await t.app.processShippedRequests(), 0, 'switched off');
  await operate(t, 'PUT', '/roadmap/3/requester-mails', { enabled: true });
  assert.is(await t.app.processShippedRequests(), 2);
  assert.equal((await shippedMails(t)).map((m) => [m.cause, m.to]), [['shipped:1', 'ann@example.com'], ['shipped:3', 'bo@example.com']]);
  const audit = ((await operate(t, 'GET', '/audit?action=roadmap.requester')).entries as { action: string; target: string }[]).map((e) => [e.action, e.target]);
  assert.equal(audit, [['roadmap.requester_mails_on', '3'], ['roadmap.requester_mails_off', '3']]);
});

test('with mail.requestersTold false nobody is told', async () => {
  const t = await setUp({ mail: { requestersTold: false } });
  t.clock.advance(60 * MINUTE);
  assert.is(await t.app.processShippedRequests(), 0);
  assert.equal(await shippedMails(t), []);
});

test.run();
