/**
 * The Inbox page over real sockets, as a browser without JavaScript: it opens on the new (not handled)
 * entries, shows every entry on request, keeps that choice across a mark, and links each email as mailto.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { signIn } from '../_pages.ts';

const test = suite('the Inbox page over HTTP');
let running: InProcessOperator;

test.before.each(async () => {
  running = await startInProcessOperator();
});
test.after.each(() => running.close());

const feedback = (description: string, email?: string) =>
  running.server.request({
    method: 'POST',
    path: '/api/v1/feedback',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ description, email }),
  });
const shownIds = (text: string) => [...text.matchAll(/<article class="card" aria-labelledby="entry-(\d+)">/g)].map((m) => Number(m[1]));

test('the Inbox opens on the new entries; "All" shows every entry and stays chosen after a mark', async () => {
  for (const text of ['First', 'Second', 'Third']) assert.is((await feedback(text)).status, 201);
  assert.is((await running.call('/feedback/2/handled', { method: 'POST', json: { handled: true } })).status, 200);
  const session = await signIn(running.send);

  const opened = await session.get('/pages/inbox');
  assert.equal(shownIds(opened.text), [3, 1]);
  assert.match(opened.text, '<option value="false" selected>New (not handled)</option>');
  assert.match(opened.text, '<a href="/pages/inbox?handled=all">Show all entries</a>');
  assert.match(opened.text, '<a href="/pages/inbox/export.csv">Export these as CSV</a>');
  assert.is((await session.get('/pages/inbox/export.csv')).text.split('\r\n').length, 4, 'the CSV of the page: a header and the 2 new entries');

  const all = await session.get('/pages/inbox?handled=all');
  assert.equal(shownIds(all.text), [3, 2, 1]);
  assert.match(all.text, '<option value="all" selected>All</option>');
  assert.not.match(all.text, 'Show all entries');
  assert.equal(shownIds((await session.get('/pages/inbox?handled=true')).text), [2]);

  const marked = await session.post('/pages/inbox/3/handled', { handled: 'true', back: '?handled=all' });
  assert.is(marked.headers['location'], '/pages/inbox?handled=all');
  assert.equal(shownIds((await session.get('/pages/inbox?handled=all')).text), [3, 2, 1]);
  assert.equal(shownIds((await session.get('/pages/inbox')).text), [1]);
});

test('an email is a mailto: link, escaped in the address and in the text', async () => {
  assert.is((await feedback('Reach me', "o'hara&co?x#%@example.com")).status, 201);
  const session = await signIn(running.send);
  const page = await session.get('/pages/inbox');
  assert.match(page.text, `<a href="mailto:o&#39;hara%26co%3Fx%23%25@example.com">o&#39;hara&#38;co?x#%@example.com</a>`);
});

test.run();
