/**
 * The roadmap sorted by votes, over real sockets: GET /roadmap?sort=votes on the operator listener (most
 * votes first, ties by id), and the Roadmap page's switch between id order and vote order.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { signIn } from '../_pages.ts';

const test = suite('operator roadmap sorted by votes');
let running: InProcessOperator;

test.before.each(async () => {
  running = await startInProcessOperator({}, { trustedProxies: parseCidrList('127.0.0.1/32') });
});
test.after.each(() => running.close());

const vote = (id: number, client: string) =>
  running.server.request({
    method: 'POST',
    path: '/api/v1/roadmap',
    headers: { 'x-forwarded-for': client, 'content-type': 'application/json' },
    body: JSON.stringify({ featureId: id }),
  });
const ids = async (query: string) => ((await running.call(`/roadmap${query}`)).json() as { features: { id: number }[] }).features.map((f) => f.id);

/** The configured ids in id order, after two votes for the third and one for the second. */
async function voted(): Promise<number[]> {
  const all = await ids('');
  assert.ok(all.length >= 4, 'the test config has at least 4 features');
  for (const [id, client] of [[all[2]!, '203.0.113.1'], [all[2]!, '198.51.100.1'], [all[1]!, '192.0.2.1']] as const) {
    assert.is((await vote(id, client)).status, 200);
  }
  return all;
}

test('GET /roadmap?sort=votes lists most votes first, ties in id order; sort=id and no sort are id order; others are refused', async () => {
  const all = await voted();
  const [first, second, third, ...rest] = all;
  assert.equal(await ids('?sort=votes'), [third, second, first, ...rest]);
  assert.equal(await ids('?sort=id'), all);
  assert.equal(await ids(''), all);
  const bad = await running.call('/roadmap?sort=title');
  assert.is(bad.status, 400);
  assert.is((bad.json() as { message: string }).message, 'Field "sort" must be id or votes.');
});

test('the Roadmap page switches between id order and vote order', async () => {
  const all = await voted();
  const session = await signIn(running.send);
  const shown = (text: string) => [...text.matchAll(/aria-labelledby="feature-(\d+)"/g)].map((m) => Number(m[1]));
  const byId = await session.get('/pages/roadmap');
  assert.equal(shown(byId.text), all);
  assert.match(byId.text, '<p class="meta">Sort: <strong aria-current="true">by id</strong> · <a href="/pages/roadmap?sort=votes">by votes</a></p>');
  const byVotes = await session.get('/pages/roadmap?sort=votes');
  assert.equal(shown(byVotes.text), [all[2], all[1], all[0], ...all.slice(3)]);
  assert.match(byVotes.text, '<p class="meta">Sort: <a href="/pages/roadmap">by id</a> · <strong aria-current="true">by votes</strong></p>');
});

test.run();
