/**
 * Who changed what, over real sockets: each operator's own token (OPERATOR_TOKENS) beside the shared
 * OPERATOR_TOKEN (named `operator`), the name of each in its audit rows, GET /audit in pages and filters,
 * the pages' sign-in remembering whose token it was, and the Audit page read without JavaScript.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADA, GRACE, NAMED_TOKENS, OPERATOR_TOKEN } from '../_operator.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { signIn } from '../_pages.ts';
import { createTestApp } from '../_setup.ts';

const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

const test = suite<{ running: InProcessOperator }>('the audit trail: named tokens, pages and filters');

test.before.each(async (context) => {
  context.running = await startInProcessOperator({ operatorTokens: NAMED_TOKENS });
});
test.after.each(({ running }) => running.close());

/** A call with `token` as the bearer token and `requestId` as its X-Request-Id. */
const as = (running: InProcessOperator, token: string, requestId: string) => (path: string, json?: unknown) =>
  running.call(path, { method: json === undefined ? 'GET' : 'POST', json, headers: { authorization: `Bearer ${token}`, 'x-request-id': requestId } });

test("each operator's token is accepted and named in the audit rows (OPERATOR_TOKEN as operator); a token of nobody is 403", async ({ running }) => {
  const at = new Date(running.server.clock.now()).toISOString();
  assert.is((await as(running, ADA, 'r-ada')('/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 10 })).status, 201);
  assert.is((await as(running, GRACE, 'r-grace')('/releases/2.5.0/rollout', { rolloutPercent: 50 })).status, 200);
  assert.is((await as(running, OPERATOR_TOKEN, 'r-op')('/releases/2.5.0/pull', {})).status, 200);
  const nobody = await as(running, `${ADA.slice(0, -1)}x`, 'r-x')('/releases/2.5.0/restore', {});
  assert.is(nobody.status, 403);
  assert.equal((nobody.json() as { code: string }).code, 'forbidden');
  const audit = await running.call('/audit');
  assert.is(audit.status, 200);
  assert.equal(audit.json(), {
    entries: [
      { id: 3, at, actor: 'operator', action: 'release.pulled', target: '2.5.0', requestId: 'r-op' },
      { id: 2, at, actor: 'grace', action: 'release.rollout', target: '2.5.0 at 50%', requestId: 'r-grace' },
      { id: 1, at, actor: 'ada', action: 'release.published', target: '2.5.0 at 10%', requestId: 'r-ada' },
    ],
    next: null,
  });
});

test('GET /audit in pages (limit, before = the next of the page before) and filters (actor, action prefix, target text); bad queries are 400', async ({ running }) => {
  const tokens = [ADA, GRACE, OPERATOR_TOKEN, ADA, GRACE];
  for (const [i, token] of tokens.entries()) {
    const published = await as(running, token, `r-${i}`)('/releases', { version: `2.5.${i}`, msiUrl: MSI(`2.5.${i}`), rolloutPercent: 10 });
    assert.is(published.status, 201);
  }
  assert.is((await as(running, ADA, 'r-5')('/releases/2.5.4/rollout', { rolloutPercent: 20 })).status, 200);
  const page = async (query: string) => {
    const answer = await running.call(`/audit?${query}`);
    assert.is(answer.status, 200, answer.text);
    const { entries, next } = answer.json() as { entries: { id: number; actor: string }[]; next: number | null };
    return { ids: entries.map((e) => e.id), actors: entries.map((e) => e.actor), next };
  };
  assert.equal(await page('limit=2'), { ids: [6, 5], actors: ['ada', 'grace'], next: 5 });
  assert.equal(await page('limit=2&before=5'), { ids: [4, 3], actors: ['ada', 'operator'], next: 3 });
  assert.equal(await page('limit=2&before=3'), { ids: [2, 1], actors: ['grace', 'ada'], next: 1 });
  assert.equal(await page('limit=2&before=1'), { ids: [], actors: [], next: null });
  assert.equal(await page('actor=ada'), { ids: [6, 4, 1], actors: ['ada', 'ada', 'ada'], next: null });
  assert.equal(await page('actor=ada&limit=2&before=6'), { ids: [4, 1], actors: ['ada', 'ada'], next: 1 });
  assert.equal((await page('action=release.rollout')).ids, [6]);
  assert.equal((await page('action=release.')).ids, [6, 5, 4, 3, 2, 1]);
  assert.equal((await page('action=roadmap.')).ids, []);
  assert.equal((await page('target=2.5.4')).ids, [6, 5]);
  assert.equal((await page(`target=${encodeURIComponent('at 20%')}&actor=ada`)).ids, [6]);

  const refused = async (query: string) => {
    const answer = await running.call(`/audit?${query}`);
    assert.is(answer.status, 400, query);
    return answer.json() as { code: string; message: string };
  };
  const rule = 'a lower-case letter, then up to 31 lower-case letters, digits or hyphens';
  assert.equal(await refused('actor=Ada'), {
    code: 'invalid_request',
    message: `Field "actor" must be an operator's name: ${rule}.`,
    resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
  });
  assert.is((await refused('limit=201')).message, 'Field "limit" must be at most 200.');
  assert.is((await refused('limit=0')).message, 'Field "limit" must be at least 1.');
  assert.is((await refused('before=x')).message, 'Field "before" must be a whole number.');
  assert.is((await refused('action=')).message, 'Field "action" must not be empty.');
  assert.is((await refused(`target=${'x'.repeat(201)}`)).message, 'Field "target" must be at most 200 characters.');
  assert.is((await refused('actor=ada&actor=grace')).message, 'Query parameter "actor" is given more than once.');
  assert.is((await refused('who=ada')).code, 'invalid_request');
});

test("the pages: a session signed in with grace's token makes grace's changes; the Audit page lists and filters them without JavaScript", async ({ running }) => {
  const { server } = running;
  const feedback = await server.request({
    method: 'POST',
    path: '/api/v1/feedback',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'Crash on .wk3' }),
  });
  assert.is(feedback.status, 201);
  const grace = await signIn(running.send, '127.0.0.1', GRACE);
  assert.is((await grace.post('/pages/inbox/1/handled', { handled: 'true' })).status, 303);
  const ada = await signIn(running.send, '127.0.0.1', ADA);
  assert.is((await ada.post('/pages/inbox/1/handled', { handled: 'false' })).status, 303);
  const rows = ((await running.call('/audit')).json() as { entries: { actor: string; action: string }[] }).entries;
  assert.equal(rows.map((e) => [e.actor, e.action]), [['ada', 'feedback.unhandled'], ['grace', 'feedback.handled']]);

  const audit = await grace.get('/pages/audit?actor=grace&action=&target=');
  assert.is(audit.status, 200);
  assert.match(audit.text, '<span class="who">Signed in as grace</span>');
  assert.match(audit.text, '<a href="/pages/audit" aria-current="page">Audit</a>');
  assert.match(audit.text, '<input type="text" id="filter-actor" name="actor" value="grace"');
  const cells =
    /<tr id="audit-(\d+)"><td data-label="When"><time[^>]*>[^<]*<\/time><\/td><td data-label="Who">([^<]*)<\/td>\s*<td class="action" data-label="Action"><code>([^<]*)<\/code><\/td><td class="wrap" data-label="Target">([^<]*)<\/td>/g;
  const shown = [...audit.text.matchAll(cells)].map((m) => m.slice(1));
  assert.equal(shown, [['1', 'grace', 'feedback.handled', '1']]);
  assert.match(audit.text, 'Changes (1)');
  const refused = await grace.get('/pages/audit?actor=Grace');
  assert.is(refused.status, 200);
  assert.match(refused.text, 'Field &#34;actor&#34; must be an operator&#39;s name');
});

test('the Audit page: 50 changes a page, newest first, "Older changes" keeps the filters; rows without a name show —', async ({ running }) => {
  const { storage } = running.server;
  for (let i = 1; i <= 55; i++) {
    await storage.change((tx) =>
      tx.audit.record({
        at: Date.UTC(2026, 10, 26, 9, 0, i),
        action: i % 2 ? 'order.refunded' : 'release.rollout',
        target: `t-${i}`,
        requestId: `r-${i}`,
        actor: i % 2 ? null : 'ada',
      })
    );
  }
  const session = await signIn(running.send);
  const first = await session.get('/pages/audit');
  assert.match(first.text, 'Changes (50+)');
  assert.match(first.text, '<tr id="audit-55">');
  assert.not.match(first.text, '<tr id="audit-5">');
  assert.match(first.text, '<a href="/pages/audit?before=6">Older changes</a>');
  assert.match(first.text, `<span title="no operator's name recorded">—</span>`);
  const second = await session.get('/pages/audit?before=6');
  assert.match(second.text, 'Changes (5)');
  assert.not.match(second.text, 'Older changes');
  const filtered = await session.get('/pages/audit?action=release.&target=t-');
  assert.match(filtered.text, 'Changes (27)');
  assert.not.match(filtered.text, 'order.refunded');
  const none = await session.get('/pages/audit?actor=nobody');
  assert.match(none.text, 'No change matches these filters.');
});

test("an embedder's createApp refuses a name or token given twice, or a weak token, as the server's start does", async () => {
  const refused = async (operatorTokens: { name: string; token: string }[], operatorToken?: string) => {
    try {
      await createTestApp({ operatorTokens, ...(operatorToken ? { operatorToken } : {}) });
    } catch (error) {
      return (error as Error).message;
    }
    return 'accepted';
  };
  assert.is(await refused([{ name: 'ada', token: ADA }, { name: 'ada', token: GRACE }]), 'the operator tokens: name ada is given twice');
  assert.is(await refused([{ name: 'operator', token: ADA }], OPERATOR_TOKEN), 'the operator tokens: name operator is given twice');
  assert.is(await refused([{ name: 'ada', token: 'short' }]), 'the operator tokens: token of ada must be at least 32 characters');
  assert.is(await refused([...NAMED_TOKENS]), 'accepted');
});

test.run();
