/**
 * The operator pages in process (app.handle), as a browser without JavaScript sends them to the operator
 * listener at localhost:8081: sign-in with the token form for a session cookie, the headers of every page,
 * sessions that expire or end, CSRF on every form, the slow-down of wrong tokens, and the pages absent
 * from the public port.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import type { HttpInit } from '../_client.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { form, PAGE_CSP, sessionOf, signIn } from '../_pages.ts';

const test = suite('operator pages over HTTP');
let running: InProcessOperator;
/** The port the browser came to, as its Host header says: the session cookie is named for it. */
const port = '8081';

test.before.each(async () => {
  running = await startInProcessOperator({ operatorProxies: parseCidrList('127.0.0.9/32') });
});
test.after.each(() => running.close());

/** One request to the operator listener, with the Host a browser sends to it. */
const sendRequest = (init: HttpInit) => running.send({ ...init, headers: { host: `localhost:${port}`, ...init.headers } });
const page = (path: string, headers: Record<string, string> = {}, from?: string) => sendRequest({ path, headers, ...(from ? { from } : {}) });
const postForm = (path: string, fields: Record<string, string>, cookie?: string, from?: string) => {
  const { body, headers } = form(fields);
  return sendRequest({ method: 'POST', path, body, headers: { ...headers, ...(cookie ? { cookie } : {}) }, ...(from ? { from } : {}) });
};
const feedback = (description: string) =>
  running.server.request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ description }) });
const inbox = async () => (((await running.call('/feedback')).json() as { entries: { id: number; handledAt: string | null }[] }).entries);

const PAGE_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};
const pick = (headers: Record<string, string>, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, headers[n]]));

test('the sign-in page: HTML with a labelled token field and the strict headers', async () => {
  const answer = await page('/pages/sign-in');
  assert.is(answer.status, 200);
  assert.is(answer.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(pick(answer.headers, Object.keys(PAGE_HEADERS)), PAGE_HEADERS);
  assert.match(answer.text, '<label for="token">Operator token</label>');
  assert.match(answer.text, '<input type="password" id="token" name="token"');
  const style = await page('/pages/assets/pages.css');
  assert.is(style.status, 200);
  assert.is(style.headers['content-type'], 'text/css; charset=utf-8');
});

test('no session, a wrong session or only the bearer token: a page redirects to the sign-in form', async () => {
  for (const headers of [{}, { cookie: `operator_session_${port}=forged` }, { authorization: `Bearer ${OPERATOR_TOKEN}` }]) {
    const answer = await page('/pages/inbox', headers);
    assert.is(answer.status, 303, JSON.stringify(headers));
    assert.is(answer.headers['location'], '/pages/sign-in?next=%2Fpages%2Finbox');
    assert.equal(pick(answer.headers, Object.keys(PAGE_HEADERS)), PAGE_HEADERS);
    assert.is(answer.text, '');
  }
  const csv = await page('/pages/inbox/export.csv', { cookie: `operator_session_${port}=forged` });
  assert.is(csv.status, 303);
});

test('the right token gives an HttpOnly, SameSite=Strict session cookie named for its port; __Host- and Secure only over https from a trusted proxy', async () => {
  const plain = await postForm('/pages/sign-in', { token: OPERATOR_TOKEN });
  assert.is(plain.status, 303);
  assert.is(plain.headers['location'], '/pages/inbox');
  const id = sessionOf(plain);
  assert.match(id, /^[A-Za-z0-9_-]{43}$/);
  assert.is(plain.headers['set-cookie'], `operator_session_${port}=${id}; HttpOnly; SameSite=Strict; Path=/`);
  const untrusted = await sendRequest({ method: 'POST', path: '/pages/sign-in', ...withProto(form({ token: OPERATOR_TOKEN })) });
  assert.not.match(untrusted.headers['set-cookie']!, 'Secure');
  const proxied = await sendRequest({ method: 'POST', path: '/pages/sign-in', from: '127.0.0.9', ...withProto(form({ token: OPERATOR_TOKEN })) });
  const secureId = sessionOf(proxied);
  assert.is(proxied.headers['set-cookie'], `__Host-operator_session=${secureId}; HttpOnly; SameSite=Strict; Path=/; Secure`);
  const signedIn = await page('/pages/inbox', { cookie: `operator_session_${port}=${id}` });
  assert.is(signedIn.status, 200);
  // Another listener's cookie name (another port of the host) is not this listener's session.
  assert.is((await page('/pages/inbox', { cookie: `operator_session_1=${id}` })).status, 303);
  assert.match(signedIn.text, '<a href="/pages/inbox" aria-current="page">Inbox</a>');
});

function withProto(body: { body: string; headers: Record<string, string> }) {
  return { body: body.body, headers: { ...body.headers, 'x-forwarded-proto': 'https' } };
}

test('a wrong or missing token re-shows the form (403, 401); after 10 a wrong one is 429, the API too; the right one still signs in', async () => {
  const missing = await postForm('/pages/sign-in', { token: '' }, undefined, '127.0.0.5');
  assert.is(missing.status, 401);
  assert.match(missing.text, 'Enter the operator token.');
  assert.is(missing.headers['set-cookie'], undefined);
  for (let i = 0; i < 9; i++) {
    const wrong = await postForm('/pages/sign-in', { token: 'nope' }, undefined, '127.0.0.5');
    assert.is(wrong.status, 403);
    assert.match(wrong.text, 'That is none of the operator tokens.');
  }
  const slowed = await postForm('/pages/sign-in', { token: 'nope' }, undefined, '127.0.0.5');
  assert.is(slowed.status, 429);
  assert.is(slowed.headers['retry-after'], '60');
  assert.match(slowed.text, 'Too many wrong tokens within a minute. Try again in 60 seconds.');
  assert.is((await running.call('/releases', { from: '127.0.0.5', headers: { authorization: 'Bearer nope' } })).status, 429);
  assert.is((await running.call('/releases', { from: '127.0.0.5' })).status, 200);
  assert.is((await postForm('/pages/sign-in', { token: OPERATOR_TOKEN }, undefined, '127.0.0.5')).status, 303);
});

test("a browser's own icon requests are answered 204 and never count as refused tokens", async () => {
  for (let i = 0; i < 12; i++) assert.is((await page('/favicon.ico', {}, '127.0.0.6')).status, 204);
  assert.is((await running.call('/releases', { from: '127.0.0.6' })).status, 200);
});

test('a form without its CSRF token, or with another, is refused and changes nothing; with it, 303 back with a flash', async () => {
  await feedback('Converts my .wk1 files');
  const [entry] = await inbox();
  const session = await signIn(sendRequest);
  for (const fields of [{ handled: 'true' }, { handled: 'true', csrf: 'x'.repeat(43) }]) {
    const forged = await postForm(`/pages/inbox/${entry!.id}/handled`, fields, session.cookie);
    assert.is(forged.status, 403);
    assert.match(forged.text, 'This form did not come from a page of your session, so nothing was changed.');
  }
  const noSession = await postForm(`/pages/inbox/${entry!.id}/handled`, { handled: 'true', csrf: session.csrf });
  assert.is(noSession.status, 303);
  assert.is(noSession.headers['location'], '/pages/sign-in?expired&next=%2Fpages%2Finbox');
  assert.is((await inbox())[0]!.handledAt, null);
  // The sign-in form says why, and signing in returns to the page (never to another site).
  const form = await page('/pages/sign-in?expired&next=%2Fpages%2Finbox');
  assert.match(form.text, 'Your session had ended (signed out, 12 hours without use, or a restart of the server): nothing was changed.');
  assert.match(form.text, '<input type="hidden" name="next" value="/pages/inbox">');
  assert.is((await postForm('/pages/sign-in', { token: OPERATOR_TOKEN, next: '/pages/inbox?type=review' })).headers['location'], '/pages/inbox?type=review');
  for (const next of ['//evil.test/pages/', '/\\evil.test', 'https://evil.test/', '/pages/sign-in']) {
    assert.is((await postForm('/pages/sign-in', { token: OPERATOR_TOKEN, next })).headers['location'], '/pages/inbox', next);
  }

  const marked = await session.post(`/pages/inbox/${entry!.id}/handled`, { handled: 'true', back: '?handled=false' });
  assert.is(marked.status, 303);
  assert.is(marked.headers['location'], '/pages/inbox?handled=false');
  assert.is((await inbox())[0]!.handledAt, new Date(running.server.clock.now()).toISOString());
  const after = await session.get('/pages/inbox?handled=false');
  assert.match(after.text, `<div class="flash done" role="status"><p>Feedback #${entry!.id} is marked handled.</p></div>`);
  assert.match(after.text, 'No feedback matches these filters.');
  assert.not.match((await session.get('/pages/inbox')).text, 'class="flash', 'a flash is shown once');
  const audit = (await running.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => [e.action, e.target]), [['feedback.handled', String(entry!.id)]]);
});

test('an error of the API is shown with its message and resolution', async () => {
  const session = await signIn(sendRequest);
  await session.post('/pages/inbox/999/handled', { handled: 'true' });
  const shown = await session.get('/pages/inbox');
  assert.match(
    shown.text,
    '<div class="flash error" role="alert"><p>No feedback has id &#34;999&#34;.</p><p>List the inbox with GET /feedback and use one of its ids.</p></div>',
  );
});

test('a refused page action shows the field the API names; a release published twice shows release_exists', async () => {
  const session = await signIn(sendRequest);
  const publish = { version: '2.5.0', msiUrl: 'http://plain.example.com/x.msi', rolloutPercent: '10', notesUrl: '' };
  assert.is((await session.post('/pages/releases', publish)).headers['location'], '/pages/releases');
  assert.match((await session.get('/pages/releases')).text, '<p>Field &#34;msiUrl&#34; must be an https:// URL with no whitespace or control characters.</p>');
  const good = { ...publish, msiUrl: 'https://downloads.example.com/x.msi' };
  await session.post('/pages/releases', good);
  await session.post('/pages/releases', good);
  assert.match(
    (await session.get('/pages/releases')).text,
    '<p>Version 2.5.0 was published before.</p><p>Publish a new version number, or widen the existing release.</p>',
  );
  await session.post('/pages/roadmap/merge', { from: '1', into: '1' });
  assert.match((await session.get('/pages/roadmap')).text, '<p>Feature 1 cannot be merged into itself.</p>');
  const releases = (await running.call('/releases')).json() as { releases: unknown[] };
  assert.is(releases.releases.length, 1);
});

test('the inbox as CSV: every matching entry, formulas defused', async () => {
  await feedback('=HYPERLINK("x")');
  await feedback('plain, with a comma');
  const session = await signIn(sendRequest);
  const csv = await session.get('/pages/inbox/export.csv?type=general');
  assert.is(csv.status, 200);
  assert.is(csv.headers['content-type'], 'text/csv; charset=utf-8');
  assert.is(csv.headers['content-disposition'], 'attachment; filename="feedback.csv"');
  const at = new Date(running.server.clock.now()).toISOString();
  assert.is(
    csv.text,
    'id,receivedAt,type,rating,appVersion,email,description,handledAt\r\n' +
      `2,${at},general,,,,"plain, with a comma",\r\n` +
      `1,${at},general,,,,"'=HYPERLINK(""x"")",\r\n`,
  );
});

test('a session ends after 12 idle hours, and at sign-out; the old cookie is refused', async () => {
  const first = await signIn(sendRequest);
  running.server.clock.advance(12 * 60 * 60 * 1000 - 1);
  assert.is((await first.get('/pages/inbox')).status, 200, 'a request restarts the idle time');
  running.server.clock.advance(12 * 60 * 60 * 1000);
  assert.is((await first.get('/pages/inbox')).headers['location'], '/pages/sign-in?next=%2Fpages%2Finbox');

  const second = await signIn(sendRequest);
  const out = await second.post('/pages/sign-out', {});
  assert.is(out.status, 303);
  assert.is(out.headers['location'], '/pages/sign-in?signed-out');
  assert.is(out.headers['set-cookie'], `operator_session_${port}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`);
  assert.is((await second.get('/pages/inbox')).headers['location'], '/pages/sign-in?next=%2Fpages%2Finbox');
  assert.match((await page('/pages/sign-in?signed-out')).text, 'You are signed out.');
});

test('the pages are not on the public port: the public 404, cookie or not', async () => {
  const session = await signIn(sendRequest);
  for (
    const [method, path] of [['GET', '/pages/inbox'], ['GET', '/pages/sign-in'], ['POST', '/pages/sign-in'], ['GET', '/pages/assets/pages.css'], ['GET', '/']]
  ) {
    const answer = await running.server.request({ method: method!, path: path!, headers: { cookie: session.cookie } });
    assert.is(answer.status, 404, `${method} ${path}`);
    assert.is((answer.json() as { code: string }).code, 'not_found');
  }
});

test.run();
