import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createVoterId } from '../../core/clients/voter-id.ts';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const roadmap = suite('roadmap');
const INVALID = 'Fix the request body or query as the message says; /openapi.json describes every field.';

type T = Awaited<ReturnType<typeof createTestApp>>;
const list = (t: T, clientIp = '203.0.113.10') => t.app.handle(coreRequest({ path: '/api/v1/roadmap', clientIp }));
const vote = (t: T, json: unknown, clientIp = '203.0.113.10') => t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/roadmap', json, clientIp }));

const feature = (id: number, title: string, description: string, category: string, release_version: string | null) => ({
  id,
  title,
  description,
  category,
  vote_count: 0,
  voted: false,
  release_version,
});

roadmap('GET lists exactly the visible features in id order, none voted yet', async () => {
  const t = await createTestApp();
  const response = await list(t);
  assert.is(response.status, 200);
  assert.equal(bodyJson(response), {
    features: [
      feature(1, 'Quattro Pro (.wb1, .wb2, .qpw) input', 'Open Quattro Pro workbooks alongside Lotus 1-2-3 files.', 'formats', null),
      feature(
        2,
        'Keep cell formulas in XLSX output',
        'Translate 1-2-3 @functions into Excel formulas instead of writing computed values.',
        'conversion',
        '2.5.0',
      ),
      feature(3, 'Batch conversion of whole folders', 'Pick a folder and convert every legacy spreadsheet in it, subfolders included.', 'app', null),
      feature(4, 'Site licenses for teams', 'One license key for every PC of a team, managed in one place.', 'licensing', null),
    ],
  });
});

roadmap('a first vote sets voted, a repeated one removes it', async () => {
  const t = await createTestApp();
  const first = await vote(t, { featureId: 3 });
  assert.is(first.status, 200);
  assert.equal(bodyJson(first), { voted: true, vote_count: 1 });
  const second = await vote(t, { featureId: 3 });
  assert.equal(bodyJson(second), { voted: false, vote_count: 0 });
});

roadmap('voted reflects the caller IP; vote_count counts every voter', async () => {
  const t = await createTestApp();
  await vote(t, { featureId: 2 }, '198.51.100.1');
  await vote(t, { featureId: 2 }, '198.51.100.2');
  const mine = bodyJson(await list(t, '198.51.100.1')) as { features: { id: number; voted: boolean; vote_count: number }[] };
  const other = bodyJson(await list(t, '198.51.100.3')) as typeof mine;
  assert.equal(mine.features.find((f) => f.id === 2), {
    ...feature(
      2,
      'Keep cell formulas in XLSX output',
      'Translate 1-2-3 @functions into Excel formulas instead of writing computed values.',
      'conversion',
      '2.5.0',
    ),
    vote_count: 2,
    voted: true,
  });
  assert.is(other.features.find((f) => f.id === 2)!.voted, false);
  assert.is(other.features.find((f) => f.id === 2)!.vote_count, 2);
});

roadmap('IPv6 callers in one /64 are one voter; IPv4-mapped addresses are their IPv4 voter', async () => {
  const t = await createTestApp();
  assert.equal(bodyJson(await vote(t, { featureId: 1 }, '2001:db8:1:2::10')), { voted: true, vote_count: 1 });
  assert.equal(bodyJson(await vote(t, { featureId: 1 }, '2001:db8:1:2:ffff::99')), { voted: false, vote_count: 0 });
  assert.equal(bodyJson(await vote(t, { featureId: 1 }, '192.0.2.7')), { voted: true, vote_count: 1 });
  assert.equal(bodyJson(await vote(t, { featureId: 1 }, '::ffff:192.0.2.7')), { voted: false, vote_count: 0 });
});

roadmap('votes are stored under a keyed hash, never the raw address', async () => {
  const t = await createTestApp({ voterSecret: 'test-secret' });
  await vote(t, { featureId: 1 }, '192.0.2.7');
  const byRawIp = await t.storage.roadmap.listRoadmap('192.0.2.7');
  assert.is(byRawIp.find((f) => f.id === 1)!.voted, false);
  const other = await createTestApp({ voterSecret: 'another-secret', storage: t.storage });
  const seenWithOtherSecret = bodyJson(await list(other, '192.0.2.7')) as { features: { id: number; voted: boolean }[] };
  assert.is(seenWithOtherSecret.features.find((f) => f.id === 1)!.voted, false);
});

roadmap("voter ids are node:crypto's HMAC-SHA-256 of the client key: votes survive a restart on the same secret", async () => {
  const first = await createTestApp({ voterSecret: 'test-secret' });
  await vote(first, { featureId: 1 }, '192.0.2.7');
  await vote(first, { featureId: 2 }, '2001:db8:1:2::10');
  const second = await createTestApp({ voterSecret: 'test-secret', storage: first.storage });
  assert.equal(bodyJson(await vote(second, { featureId: 1 }, '192.0.2.7')), { voted: false, vote_count: 0 });
  assert.equal(bodyJson(await vote(second, { featureId: 2 }, '2001:db8:1:2:ffff::1')), { voted: false, vote_count: 0 });
  assert.is(createVoterId('test-secret')('192.0.2.7'), createHmac('sha256', 'test-secret').update('192.0.2.7').digest('base64url'));
});

for (const [name, featureId] of [['a hidden feature', 5], ['a feature that does not exist', 99]] as const) {
  roadmap(`voting for ${name} is 404 feature_not_found`, async () => {
    const t = await createTestApp();
    const response = await vote(t, { featureId });
    assert.is(response.status, 404);
    assert.equal(bodyJson(response), {
      code: 'feature_not_found',
      message: `No visible roadmap feature has id ${featureId}.`,
      resolution: 'List the votable features with GET /api/v1/roadmap and use one of their ids.',
    });
  });
}

for (
  const [name, body, message] of [
    ['a missing featureId', {}, 'Field "featureId" is required.'],
    ['featureId 0', { featureId: 0 }, 'Field "featureId" must be an integer of at least 1.'],
    ['a negative featureId', { featureId: -3 }, 'Field "featureId" must be an integer of at least 1.'],
    ['a fractional featureId', { featureId: 1.5 }, 'Field "featureId" must be an integer of at least 1.'],
    ['featureId as a string', { featureId: '1' }, 'Field "featureId" must be an integer of at least 1.'],
    ['a huge featureId', { featureId: 1e20 }, 'Field "featureId" must be at most 2147483647.'],
    ['another field', { featureId: 1, vote: true }, 'Unknown field "vote": this request accepts only featureId.'],
  ] as const
) {
  roadmap(`${name} is 400 invalid_request naming the field`, async () => {
    const t = await createTestApp();
    const response = await vote(t, body);
    assert.is(response.status, 400);
    assert.equal(bodyJson(response), { code: 'invalid_request', message, resolution: INVALID });
  });
}

roadmap('content sync at start: changed texts update, dropped features hide, votes stay', async () => {
  const t = await createTestApp();
  await vote(t, { featureId: 1 });
  await vote(t, { featureId: 4 });
  const roadmapContent = t.content.roadmap
    .filter((f) => f.id !== 4)
    .map((f) => (f.id === 1 ? { ...f, title: 'Quattro Pro input' } : f));
  const restarted = await createTestApp({ storage: t.storage, content: { ...t.content, roadmap: roadmapContent }, voterSecret: 'unused' });
  const features = (await t.storage.roadmap.listRoadmap('nobody')).map((f) => [f.id, f.title, f.vote_count]);
  assert.equal(features, [
    [1, 'Quattro Pro input', 1],
    [2, 'Keep cell formulas in XLSX output', 0],
    [3, 'Batch conversion of whole folders', 0],
  ]);
  assert.is((await restarted.app.handle(coreRequest({ method: 'POST', path: '/api/v1/roadmap', json: { featureId: 4 } }))).status, 404);
});

roadmap.run();
