/**
 * The Releases page and ramp plans, without JavaScript: publish with a plan (percents and hours per
 * step); the card shows the plan, the step in force and when the next comes; a halted ramp shows why,
 * with the figures, and Resume goes on with it. Injected clock.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { signIn } from '../_pages.ts';

const test = suite('the Releases page: ramp plans');
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const HOUR = 3600_000;

let running: InProcessOperator;
test.before.each(async () => {
  running = await startInProcessOperator();
});
test.after.each(() => running.close());

test('a plan published on the page is shown with its step in force and the next; a halt shows why and Resume goes on', async () => {
  const { clock, storage } = running.server;
  const start = clock.now();
  let session = await signIn(running.send);
  await session.post('/pages/releases', {
    version: '2.6.0',
    msiUrl: MSI('2.6.0'),
    rolloutPercent: '10',
    ramp: '1, 5, 25, 100',
    every: '24',
    everyUnit: 'hours',
  });
  let page = (await session.get('/pages/releases')).text;
  assert.match(page, '2.6.0 is published to 1% of the clients on a ramp of 1, 5, 25, 100%.');
  const next = new Date(start + 24 * HOUR).toISOString();
  assert.match(page, `<p class="meta ramp">Ramp 1% → 5% → 25% → 100%, one step every 24 hours: step 1 of 4 (1%) · next step <time datetime="${next}"`);
  clock.advance(24 * HOUR);
  // A session lasts less than a day: a new one after each jump of the clock.
  session = await signIn(running.send);
  page = (await session.get('/pages/releases')).text;
  assert.match(page, 'step 2 of 4 (5%)');
  assert.match(page, '<span class="badge">served to 5% of clients</span>');
  await storage.change((tx) => tx.releases.haltRelease('2.6.0', clock.now(), '2.6.0: 12 bug reports from 300 installs (40.0 per 1,000)'));
  page = (await session.get('/pages/releases')).text;
  assert.match(page, '<span class="badge strong">Halted</span>');
  assert.match(page, 'at 5%: 2.6.0: 12 bug reports from 300 installs (40.0 per 1,000)</p>');
  assert.match(page, '<form method="post" action="/pages/releases/2.6.0/resume">');
  clock.advance(48 * HOUR);
  session = await signIn(running.send);
  assert.match((await session.get('/pages/releases')).text, 'step 2 of 4 (5%) · held by the halt rule');
  await session.post('/pages/releases/2.6.0/resume', {});
  page = (await session.get('/pages/releases')).text;
  assert.match(page, `2.6.0 resumed its ramp at 5%; the next step comes ${new Date(clock.now() + 24 * HOUR).toISOString()}.`);
  assert.not.match(page, 'held by the halt rule');
  // A plan that is not whole numbers is refused by name, and nothing is published.
  await session.post('/pages/releases', { version: '2.7.0', msiUrl: MSI('2.7.0'), rolloutPercent: '10', ramp: '1, five', every: '24', everyUnit: 'hours' });
  assert.match((await session.get('/pages/releases')).text, 'ramp');
  assert.is(((await running.call('/releases')).json() as { releases: unknown[] }).releases.length, 1);
});

test('a rollout to two decimals: the fields step by 0.01; half a percent is published, shown and ramped; a third decimal is refused by name', async () => {
  const session = await signIn(running.send);
  let page = (await session.get('/pages/releases')).text;
  assert.match(page, 'name="rolloutPercent" value="10" min="0" max="100" step="0.01" required');
  await session.post('/pages/releases', { version: '2.6.0', msiUrl: MSI('2.6.0'), rolloutPercent: '0.5', ramp: '', every: '24', everyUnit: 'hours' });
  page = (await session.get('/pages/releases')).text;
  assert.match(page, '2.6.0 is published to 0.5% of the clients.');
  assert.match(page, '<span class="badge">served to 0.5% of clients</span>');
  assert.match(page, ' · rollout 0.5%');
  await session.post('/pages/releases', {
    version: '2.7.0',
    msiUrl: MSI('2.7.0'),
    rolloutPercent: '10',
    ramp: '0.25, 2.5, 100',
    every: '1',
    everyUnit: 'days',
  });
  page = (await session.get('/pages/releases')).text;
  assert.match(page, '2.7.0 is published to 0.25% of the clients on a ramp of 0.25, 2.5, 100%.');
  assert.match(page, 'Ramp 0.25% → 2.5% → 100%, one step every 24 hours: step 1 of 3 (0.25%)');
  await session.post('/pages/releases/2.6.0/rollout', { rolloutPercent: '0.125' });
  page = (await session.get('/pages/releases')).text;
  assert.match(page, 'Field &#34;rolloutPercent&#34; must have at most two decimals (0.01 % is the smallest step, one basis point).');
  const listed = ((await running.call('/releases')).json() as { releases: { version: string; rolloutBasisPoints: number }[] }).releases;
  assert.equal(listed.map((r) => [r.version, r.rolloutBasisPoints]), [['2.7.0', 25], ['2.6.0', 50]]);
});

test.run();
