/**
 * Undoing a merge on the Roadmap page over real sockets, as a browser without JavaScript: a merged
 * feature has an Unmerge button; pressing it shows the feature again with the votes that came from it,
 * and the public roadmap follows at once. A feature no longer merged shows the API's refusal.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { signIn } from '../_pages.ts';

const test = suite('the Roadmap page: unmerge');
let running: InProcessOperator;

test.before.each(async () => {
  running = await startInProcessOperator();
});
test.after.each(() => running.close());

test('a merged feature is unmerged from its card: shown again, its vote back, on the public roadmap too', async () => {
  const session = await signIn(running.send);
  const vote = await running.server.request({
    method: 'POST',
    path: '/api/v1/roadmap',
    headers: { 'content-type': 'application/json' },
    body: '{"featureId":2}',
  });
  assert.is(vote.status, 200);
  await session.post('/pages/roadmap/merge', { from: '2', into: '1' });
  const merged = await session.get('/pages/roadmap');
  assert.match(merged.text, '<form method="post" action="/pages/roadmap/2/unmerge">');
  assert.match(merged.text, 'Unmerge<span class="visually-hidden"> #2</span></button>');
  assert.not.match(merged.text, 'action="/pages/roadmap/1/unmerge"', 'only a merged feature has the button');

  assert.is((await session.post('/pages/roadmap/2/unmerge', {})).headers['location'], '/pages/roadmap');
  const after = await session.get('/pages/roadmap');
  assert.match(after.text, '<p>Feature #2 is shown again, out of #1: 1 vote back.</p>');
  assert.not.match(after.text, 'action="/pages/roadmap/2/unmerge"');
  const listed = (await running.server.request({ path: '/api/v1/roadmap' })).json() as { features: { id: number; vote_count: number }[] };
  assert.equal(listed.features.filter((f) => f.id <= 2).map((f) => [f.id, f.vote_count]), [[1, 0], [2, 1]]);

  await session.post('/pages/roadmap/2/unmerge', {});
  assert.match((await session.get('/pages/roadmap')).text, '<p>Feature 2 is not merged into another: there is no merge to undo.</p>');
  const audit = ((await running.call('/audit')).json() as { entries: { action: string; target: string }[] }).entries;
  assert.equal(audit.map((e) => [e.action, e.target]), [['roadmap.unmerged', '2 out of 1 (1 votes back)'], ['roadmap.merged', '2 into 1 (1 votes moved)']]);
});

test.run();
