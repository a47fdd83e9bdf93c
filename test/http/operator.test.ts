/**
 * The operator API over real sockets: its own listener, the token gate, releases published and pulled
 * through it, seen by the public GET /version of the same app, and the audit trail.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN as TOKEN } from '../_operator.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import type { InProcessServer } from '../_in-process.ts';
import { signIn } from '../_pages.ts';

const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const test = suite('operator API');

let running: InProcessOperator;
let server: InProcessServer;

test.before.each(async () => {
  running = await startInProcessOperator();
  ({ server } = running);
});
test.after.each(() => running.close());

const bearer = { authorization: `Bearer ${TOKEN}` };
const call: InProcessOperator['call'] = (path, init) => running.call(path, init);

test('no token is 401 unauthorized, a wrong one 403 forbidden, each with the error body and no-store', async () => {
  const none = await running.send({ path: '/releases' });
  assert.is(none.status, 401);
  assert.is(none.headers['www-authenticate'], 'Bearer');
  assert.is(none.headers['cache-control'], 'no-store');
  assert.equal(none.json(), {
    code: 'unauthorized',
    message: 'This request carries no bearer token.',
    resolution: 'Send an operator token (OPERATOR_TOKEN, or one of OPERATOR_TOKENS) as "Authorization: Bearer <token>".',
  });
  const wrong = await call('/releases', { headers: { authorization: `Bearer ${TOKEN.slice(0, -1)}y` } });
  assert.is(wrong.status, 403);
  assert.equal(wrong.json(), {
    code: 'forbidden',
    message: 'The bearer token is none of the operator tokens.',
    resolution: 'Use a token this server was started with (OPERATOR_TOKEN, or your own in OPERATOR_TOKENS).',
  });
});

test('after 10 refused tokens an address gets 429 for the rest of the minute, but the right token is always accepted', async () => {
  const nope = { authorization: 'Bearer nope' };
  for (let i = 0; i < 10; i++) assert.is((await call('/releases', { headers: nope, from: '127.0.0.7' })).status, 403);
  const slowed = await call('/releases', { headers: nope, from: '127.0.0.7' });
  assert.is(slowed.status, 429);
  assert.is(slowed.headers['retry-after'], '60');
  assert.equal(slowed.json(), {
    code: 'too_many_failures',
    message: '10 refused tokens from this address within a minute.',
    resolution: 'Send the right token (it is always accepted), or wait for the seconds in Retry-After.',
  });
  assert.is((await call('/releases', { from: '127.0.0.7' })).status, 200, 'the owner is not locked out');
  assert.is((await call('/releases', { headers: nope, from: '127.0.0.8' })).status, 403);
  server.clock.advance(60_000);
  assert.is((await call('/releases', { headers: nope, from: '127.0.0.7' })).status, 403);
});

test('100 refused tokens a minute from all addresses together: every wrong token gets 429, the right one still 200', async () => {
  const nope = { authorization: 'Bearer nope' };
  for (let i = 0; i < 100; i++) assert.is((await call('/releases', { headers: nope, from: `127.0.${1 + Math.floor(i / 5)}.${10 + (i % 5)}` })).status, 403);
  const fresh = await call('/releases', { headers: nope, from: '127.0.99.1' });
  assert.equal([fresh.status, (fresh.json() as { message: string }).message], [429, '100 refused tokens from all addresses within a minute.']);
  assert.is((await call('/releases', { from: '127.0.99.1' })).status, 200);
  server.clock.advance(60_000);
  assert.is((await call('/releases', { headers: nope, from: '127.0.99.1' })).status, 403);
});

test('a malformed percent escape in a version or session path is a 400 naming the parameter, not a 500', async () => {
  for (const [path, json] of [['/releases/%E0%A4%A/pull', undefined], ['/releases/%ZZ/rollout', { rolloutPercent: 50 }]] as const) {
    const answer = await call(path, { method: 'POST', ...(json ? { json } : {}) });
    assert.is(answer.status, 400, path);
    assert.is((answer.json() as { code: string }).code, 'invalid_path', path);
  }
  const signedIn = await signIn(running.send);
  const revoke = await signedIn.post('/pages/orders/%E0%A4%A/revoke', {});
  assert.is(revoke.status, 303);
  assert.is(revoke.headers['location'], '/pages/orders?order=%25E0%25A4%25A');
  assert.not.ok(server.logger.lines.some((line) => line.level === 'error'), 'no error logged');
});

test('the operator paths and the token on the public port are the public 404', async () => {
  for (const path of ['/releases', '/audit', '/releases/2.5.0/pull']) {
    const answer = await server.request({ path, headers: bearer });
    assert.is(answer.status, 404, path);
    assert.is((answer.json() as { code: string }).code, 'not_found');
  }
});

test('publish at 10 %, widen to 100 %, pull: GET /version of the public port follows each at once; the audit trail lists them', async () => {
  const published = await call('/releases', { method: 'POST', json: { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 10 } });
  assert.is(published.status, 201, published.text);
  assert.equal(published.json(), {
    version: '2.5.0',
    msiUrl: MSI('2.5.0'),
    notesUrl: null,
    channel: 'stable',
    rolloutBasisPoints: 1000,
    rolloutPercent: 10,
    servedBasisPoints: 1000,
    servedPercent: 10,
    sha256: null,
    size: null,
    critical: false,
    publishedAt: new Date(server.clock.now()).toISOString(),
    pulledAt: null,
    ramp: null,
    haltedAt: null,
    haltReason: null,
  });
  assert.is((await call('/releases', { method: 'POST', json: { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 10 } })).status, 409);
  const widened = await call('/releases/2.5.0/rollout', { method: 'POST', json: { rolloutPercent: 100 } });
  assert.is(widened.status, 200);
  assert.equal((await server.request({ path: '/api/v1/version' })).json(), { version: '2.5.0', downloadUrl: MSI('2.5.0') });
  const pulled = await call('/releases/2.5.0/pull', { method: 'POST' });
  assert.is((pulled.json() as { pulledAt: string }).pulledAt, new Date(server.clock.now()).toISOString());
  assert.equal((await server.request({ path: '/api/v1/version' })).json(), { version: '2.4.1', downloadUrl: server.content.download.msiUrl });
  const audit = (await call('/audit')).json() as { entries: { action: string; target: string; requestId: string }[] };
  assert.equal(audit.entries.map((e) => [e.action, e.target]), [
    ['release.pulled', '2.5.0'],
    ['release.rollout', '2.5.0 at 100%'],
    ['release.published', '2.5.0 at 10%'],
  ]);
  assert.ok(audit.entries.every((e) => e.requestId.length > 0));
});

test('bad input: the field is named; an unknown version is 404 release_not_found', async () => {
  const bad = await call('/releases', { method: 'POST', json: { version: '2.5.0', msiUrl: 'http://plain.example.com/x.msi', rolloutPercent: 10 } });
  assert.is(bad.status, 400);
  assert.equal(bad.json(), {
    code: 'invalid_request',
    message: 'Field "msiUrl" must be an https:// URL with no whitespace or control characters.',
    resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
  });
  const over = await call('/releases', { method: 'POST', json: { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 101 } });
  assert.is(over.status, 400);
  const missing = await call('/releases/9.9.9/pull', { method: 'POST' });
  assert.is(missing.status, 404);
  assert.equal(missing.json(), {
    code: 'release_not_found',
    message: 'No release has version 9.9.9.',
    resolution: 'List the releases with GET /releases and use one of their versions.',
  });
});

test('the feedback inbox: what the public port stored, newest first, filtered, marked handled, in the audit trail', async () => {
  const post = (body: unknown, from: string) =>
    server.request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), from });
  assert.is((await post({ description: 'Great app', type: 'review', rating: 5 }, '127.0.0.21')).status, 201);
  server.clock.advance(1000);
  assert.is((await post({ description: 'Crash on .wk3', type: 'bug_report' }, '127.0.0.22')).status, 201);
  const listed = await call('/feedback');
  assert.is(listed.status, 200);
  const { entries, next } = listed.json() as { entries: { id: number; description: string; handledAt: string | null }[]; next: number | null };
  assert.equal(entries.map((e) => e.description), ['Crash on .wk3', 'Great app']);
  assert.is(next, null);
  const reviews = (await call('/feedback?type=review&rating=5')).json() as { entries: { description: string; receivedAt: string }[] };
  assert.equal(reviews.entries.map((e) => [e.description, e.receivedAt]), [['Great app', new Date(server.clock.now() - 1000).toISOString()]]);
  const handled = await call(`/feedback/${entries[0]!.id}/handled`, { method: 'POST', json: { handled: true } });
  assert.is((handled.json() as { handledAt: string }).handledAt, new Date(server.clock.now()).toISOString());
  assert.equal(((await call('/feedback?handled=false')).json() as { entries: { description: string }[] }).entries.map((e) => e.description), ['Great app']);
  const paged = (await call('/feedback?limit=1')).json() as { entries: unknown[]; next: number };
  assert.is(paged.entries.length, 1);
  assert.is(((await call(`/feedback?limit=1&before=${paged.next}`)).json() as { entries: { description: string }[] }).entries[0]!.description, 'Great app');
  const bad = await call('/feedback?rating=9');
  assert.is(bad.status, 400);
  assert.is((bad.json() as { message: string }).message, 'Field "rating" must be 1 to 5.');
  assert.is((await call('/feedback?type=review&type=bug_report')).status, 400);
  assert.is((await call('/feedback/999/handled', { method: 'POST', json: { handled: true } })).status, 404);
  const audit = (await call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => [e.action, e.target]), [['feedback.handled', String(entries[0]!.id)]]);
});

test('marking an entry handled (or not) twice changes it once: one audit row per real change, the first time kept', async () => {
  assert.is(
    (await server.request({
      method: 'POST',
      path: '/api/v1/feedback',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'Great app', type: 'review', rating: 5 }),
      from: '127.0.0.21',
    })).status,
    201,
  );
  const [entry] = ((await call('/feedback')).json() as { entries: { id: number }[] }).entries;
  const mark = (handled: boolean) => call(`/feedback/${entry!.id}/handled`, { method: 'POST', json: { handled } });
  const first = new Date(server.clock.now()).toISOString();
  assert.is(((await mark(true)).json() as { handledAt: string }).handledAt, first);
  server.clock.advance(1000);
  const again = await mark(true);
  assert.is(again.status, 200);
  assert.is((again.json() as { handledAt: string }).handledAt, first);
  assert.is(((await mark(false)).json() as { handledAt: null }).handledAt, null);
  assert.is((await mark(false)).status, 200);
  const audit = (await call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => e.action).sort(), ['feedback.handled', 'feedback.unhandled']);
});

test('GET /openapi.json on the operator listener is an OpenAPI 3.1 document of every operator path, bearer-secured', async () => {
  const answer = await running.send({ path: '/openapi.json' });
  assert.is(answer.status, 200);
  const doc = answer.json() as { openapi: string; paths: Record<string, Record<string, unknown>>; components: { securitySchemes: unknown } };
  assert.is(doc.openapi, '3.1.0');
  assert.equal(Object.keys(doc.paths).sort(), [
    '/audit',
    '/feedback',
    '/feedback/feature',
    '/feedback/handled',
    '/feedback/{id}/feature',
    '/feedback/{id}/handled',
    '/licenses/updates',
    '/mails',
    '/mails/{id}/retry',
    '/orders',
    '/orders/export',
    '/orders/reconcile',
    '/orders/{session}',
    '/orders/{session}/mails',
    '/orders/{session}/reinstate',
    '/orders/{session}/resend',
    '/orders/{session}/revoke',
    '/orders/{session}/upgrade',
    '/releases',
    '/releases/{version}/promote',
    '/releases/{version}/pull',
    '/releases/{version}/restore',
    '/releases/{version}/resume',
    '/releases/{version}/rollout',
    '/roadmap',
    '/roadmap/{id}',
    '/roadmap/{id}/merge',
    '/roadmap/{id}/requester-mails',
    '/roadmap/{id}/unmerge',
    '/stats',
    '/update-files/{channel}',
    '/update-roots/{channel}',
    '/webhooks',
    '/webhooks/deliveries',
    '/webhooks/deliveries/replay-failed',
    '/webhooks/deliveries/{id}/replay',
    '/webhooks/{id}',
    '/webhooks/{id}/rotate-secret',
    '/webhooks/{id}/test',
  ]);
  assert.equal(Object.keys(doc.paths['/roadmap/{id}']!), ['patch']);
  assert.equal(Object.keys(doc.paths['/webhooks/{id}']!), ['patch', 'delete']);
  assert.equal(Object.keys(doc.paths['/releases']!).sort(), ['get', 'post']);
  assert.equal(doc.components.securitySchemes, {
    operatorToken: { type: 'http', scheme: 'bearer', description: "OPERATOR_TOKEN, or an operator's own token of OPERATOR_TOKENS" },
  });
});

test.run();
