/**
 * The Releases page without JavaScript: a pull is confirmed first (the page says which clients go back to
 * what), only the confirmation form pulls, and only with the session's CSRF token; Restore serves a
 * pulled release again. Each change sends its event (release.rolled_out, release.pulled,
 * release.restored) with the release and its share after the change.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { form, signIn } from '../_pages.ts';

const test = suite('the Releases page: pull confirmation, restore, events');
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

let running: InProcessOperator;
test.before.each(async () => {
  running = await startInProcessOperator();
});
test.after.each(() => running.close());

const publish = (version: string, rolloutPercent: number) =>
  running.call('/releases', { method: 'POST', json: { version, msiUrl: MSI(version), rolloutPercent } });
const live = async () =>
  ((await running.call('/releases')).json() as { releases: { version: string; pulledAt: string | null; servedPercent: number }[] }).releases.map((
    r,
  ) => [r.version, r.pulledAt === null, r.servedPercent]);

test("Pull is a link to a confirmation that says what the pull does; the card's own form does not pull", async () => {
  await publish('2.5.0', 100);
  await publish('2.6.0', 30);
  await publish('2.7.0', 10);
  const session = await signIn(running.send);
  const page = (await session.get('/pages/releases')).text;
  assert.match(page, '<a class="button danger" href="/pages/releases?pull=2.7.0#confirm">Pull 2.7.0…</a>');
  assert.match(page, '<span class="badge">served to 10% of clients</span>');
  const confirm = (await session.get('/pages/releases?pull=2.7.0')).text;
  assert.match(confirm, '<h2 id="confirm-title">Pull 2.7.0?</h2>\n<p>10% of clients go back to 2.6.0.</p>');
  assert.match(confirm, '<input type="hidden" name="confirm" value="pull">');
  // A pull posted without the confirmation pulls nothing and leads back to it.
  const unconfirmed = await session.post('/pages/releases/2.7.0/pull', {});
  assert.is(unconfirmed.headers['location'], '/pages/releases?pull=2.7.0');
  assert.equal(await live(), [['2.7.0', true, 10], ['2.6.0', true, 20], ['2.5.0', true, 70]]);
  // Without the session's CSRF token: 403, nothing pulled.
  const forged = await running.send({
    method: 'POST',
    path: '/pages/releases/2.7.0/pull',
    ...form({ confirm: 'pull', csrf: 'x' }),
    headers: { ...form({}).headers, cookie: session.cookie },
  });
  assert.is(forged.status, 403);
  assert.equal((await live())[0], ['2.7.0', true, 10]);
  await session.post('/pages/releases/2.7.0/pull', { confirm: 'pull' });
  assert.match((await session.get('/pages/releases')).text, '2.7.0 is pulled: no client gets it until it is restored.');
  assert.equal(await live(), [['2.7.0', false, 0], ['2.6.0', true, 30], ['2.5.0', true, 70]]);
  // Clients that would go back to the version file are told it is the baseline.
  assert.match((await session.get('/pages/releases?pull=2.5.0')).text, '<p>70% of clients go back to 2.4.1 (the baseline).</p>');
  await session.post('/pages/releases/2.7.0/restore', {});
  assert.match((await session.get('/pages/releases')).text, '2.7.0 is restored: served to 10% of the clients.');
  assert.equal(await live(), [['2.7.0', true, 10], ['2.6.0', true, 20], ['2.5.0', true, 70]]);
});

test('rollout, pull and restore each send their event with the release and its share after the change', async () => {
  const { storage } = running.server;
  await storage.change((tx) => tx.outbox.addEndpoint({ url: 'http://127.0.0.1:9/r', secret: 'whsec_AAAA', events: [], format: 'standard', createdAt: 0 }));
  await publish('2.5.0', 100);
  await publish('2.6.0', 10);
  await running.call('/releases/2.6.0/rollout', { method: 'POST', json: { rolloutPercent: 40 } });
  await running.call('/releases/2.6.0/rollout', { method: 'POST', json: { rolloutPercent: 40 } });
  await running.call('/releases/2.6.0/pull', { method: 'POST' });
  await running.call('/releases/2.6.0/pull', { method: 'POST' });
  await running.call('/releases/2.6.0/restore', { method: 'POST' });
  const due = await storage.outbox.claimDue(running.server.clock.now() + 1, 1000, 100);
  const events = due.map((d) =>
    JSON.parse(d.body) as { type: string; data: { version: string; rolloutPercent: number; servedPercent: number; pulledAt: string | null } }
  );
  assert.equal(
    events.map((e) => [e.type, e.data.version, e.data.rolloutPercent, e.data.servedPercent, e.data.pulledAt !== null]),
    [
      ['release.published', '2.5.0', 100, 100, false],
      ['release.published', '2.6.0', 10, 10, false],
      ['release.rolled_out', '2.6.0', 40, 40, false],
      ['release.pulled', '2.6.0', 40, 0, true],
      ['release.restored', '2.6.0', 40, 40, false],
    ],
    'a rollout to the same percent and a second pull send nothing',
  );
});

test('the publish form takes an address with ł as typed: stored and served percent-encoded, a real socket sends it as a 302; a non-ASCII host is refused by name', async () => {
  const session = await signIn(running.send);
  await session.post('/pages/releases', { version: '2.6.0', msiUrl: 'https://downloads.example.com/Konwerter-ł.msi', rolloutPercent: '100' });
  const stored = 'https://downloads.example.com/Konwerter-%C5%82.msi';
  assert.match((await session.get('/pages/releases')).text, `<a href="${stored}">${stored}</a>`);
  const download = await running.server.request({ path: '/api/v1/download', headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' } });
  assert.equal([download.status, download.headers['location'], download.headers['release-version']], [302, stored, '2.6.0']);
  await session.post('/pages/releases', { version: '2.7.0', msiUrl: 'https://pobieranie.przykład.pl/Konwerter.msi', rolloutPercent: '100' });
  assert.match((await session.get('/pages/releases')).text, 'has &#34;ł&#34; (U+0142) in its host name');
  assert.equal(((await running.call('/releases')).json() as { releases: { version: string }[] }).releases.map((r) => r.version), ['2.6.0']);
});

test('a beta release is shown on its channel with a Promote form; promoting at 10 % moves it to stable', async () => {
  await publish('2.7.0', 100);
  const beta = await running.call('/releases', { method: 'POST', json: { version: '2.8.0', msiUrl: MSI('2.8.0'), rolloutPercent: 100, channel: 'beta' } });
  assert.is(beta.status, 201);
  const session = await signIn(running.send);
  let page = (await session.get('/pages/releases')).text;
  assert.match(page, '<select id="publish-channel" name="channel"><option value="stable" selected>stable</option><option value="beta">beta</option></select>');
  assert.match(page, '<span class="badge">served to 100% of beta apps</span>');
  assert.match(page, ' · on beta · rollout 100%');
  assert.match(page, '<form method="post" action="/pages/releases/2.8.0/promote" class="row">');
  assert.match(page, '<select id="promote-2-8-0" name="channel"><option value="stable" selected>stable</option></select>');
  assert.not.match(page, 'action="/pages/releases/2.7.0/promote"', 'a stable release has nowhere to go');
  await session.post('/pages/releases/2.8.0/promote', { channel: 'stable', rolloutPercent: '10' });
  page = (await session.get('/pages/releases')).text;
  assert.match(page, '2.8.0 is promoted to stable, at 10% of its apps.');
  assert.match(page, '<span class="badge">served to 10% of clients</span>');
  const listed = ((await running.call('/releases')).json() as { releases: { version: string; channel: string }[] }).releases;
  assert.equal(listed.map((r) => [r.version, r.channel]), [['2.8.0', 'stable'], ['2.7.0', 'stable']]);
});

test.run();
