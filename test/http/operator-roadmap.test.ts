/**
 * Roadmap admin over real sockets: features added, edited, hidden, shipped and merged through the operator
 * listener, each change seen at once by the public GET /api/v1/roadmap of the same app, with votes moved
 * exactly and every change in the audit trail.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';

const test = suite('operator roadmap');
let running: InProcessOperator;

test.before.each(async () => {
  running = await startInProcessOperator({}, { trustedProxies: parseCidrList('127.0.0.1/32') });
});
test.after.each(() => running.close());

interface PublicFeature {
  id: number;
  title: string;
  vote_count: number;
  voted: boolean;
  release_version: string | null;
}

const publicRoadmap = async (client = '203.0.113.1') =>
  ((await running.server.request({ path: '/api/v1/roadmap', headers: { 'x-forwarded-for': client } })).json() as { features: PublicFeature[] }).features;
const vote = (id: number, client: string) =>
  running.server.request({
    method: 'POST',
    path: '/api/v1/roadmap',
    headers: { 'x-forwarded-for': client, 'content-type': 'application/json' },
    body: JSON.stringify({ featureId: id }),
  });

test('GET /roadmap lists every feature of the config file, hidden ones too, with counts and origin', async () => {
  const answer = await running.call('/roadmap');
  assert.is(answer.status, 200);
  const { features } = answer.json() as { features: Record<string, unknown>[] };
  const configured = running.server.content.roadmap;
  assert.equal(
    features.map((f) => f['id']),
    configured.map((f) => f.id).sort((a, b) => a - b),
  );
  assert.ok(features.every((f) => f['from_config'] === true && f['merged_into'] === null && f['vote_count'] === 0));
});

test('a feature added, then shipped and hidden, is seen by the public roadmap at once', async () => {
  const before = await publicRoadmap();
  const created = await running.call('/roadmap', { method: 'POST', json: { title: 'Quattro Pro import', category: 'formats' } });
  assert.is(created.status, 201);
  const feature = created.json() as { id: number };
  assert.equal(feature, {
    id: Math.max(...running.server.content.roadmap.map((f) => f.id)) + 1,
    title: 'Quattro Pro import',
    description: '',
    category: 'formats',
    visible: true,
    release_version: null,
    vote_count: 0,
    merged_into: null,
    from_config: false,
  });
  assert.equal((await publicRoadmap()).map((f) => f.id), [...before.map((f) => f.id), feature.id]);

  // Shipped in a release clients can have: one not published yet is refused, a published one is taken.
  const early = await running.call(`/roadmap/${feature.id}`, { method: 'PATCH', json: { release_version: '2.6.0' } });
  assert.equal([early.status, (early.json() as { code: string }).code], [409, 'release_not_live']);
  const msi = 'https://downloads.example.com/LegacySheetConverter-2.6.0-x64.msi';
  assert.is((await running.call('/releases', { method: 'POST', json: { version: '2.6.0', msiUrl: msi, rolloutPercent: 100 } })).status, 201);
  const shipped = await running.call(`/roadmap/${feature.id}`, { method: 'PATCH', json: { release_version: '2.6.0' } });
  assert.is(shipped.status, 200);
  assert.is((await publicRoadmap()).find((f) => f.id === feature.id)?.release_version, '2.6.0');

  assert.is((await running.call(`/roadmap/${feature.id}`, { method: 'PATCH', json: { visible: false } })).status, 200);
  assert.equal((await publicRoadmap()).map((f) => f.id), before.map((f) => f.id));
  assert.is((await vote(feature.id, '203.0.113.9')).status, 404);

  const audit = (await running.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => [e.action, e.target]), [
    ['roadmap.edited', `${feature.id}: visible=false`],
    ['roadmap.edited', `${feature.id}: release_version=2.6.0`],
    ['release.published', '2.6.0 at 100%'],
    ['roadmap.created', `${feature.id}: Quattro Pro import`],
  ]);
});

test('merging a duplicate moves its votes, one per voter, hides it, and the public counts follow', async () => {
  const [keep, duplicate] = await publicRoadmap();
  for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) assert.is((await vote(duplicate!.id, client)).status, 200);
  for (const client of ['203.0.113.3', '203.0.113.4']) assert.is((await vote(keep!.id, client)).status, 200);
  const merged = await running.call(`/roadmap/${duplicate!.id}/merge`, { method: 'POST', json: { into: keep!.id } });
  assert.is(merged.status, 200);
  const answer = merged.json() as { merged: { visible: boolean; merged_into: number; vote_count: number }; into: { vote_count: number }; movedVotes: number };
  assert.equal([answer.merged.visible, answer.merged.merged_into, answer.merged.vote_count], [false, keep!.id, 0]);
  assert.equal([answer.into.vote_count, answer.movedVotes], [4, 2]);
  const seen = await publicRoadmap('203.0.113.1');
  assert.equal(seen.find((f) => f.id === keep!.id), { ...keep!, vote_count: 4, voted: true });
  assert.is(seen.find((f) => f.id === duplicate!.id), undefined);
  const again = await running.call(`/roadmap/${duplicate!.id}/merge`, { method: 'POST', json: { into: keep!.id } });
  assert.is(again.status, 409);
  assert.equal(again.json(), {
    code: 'feature_already_merged',
    message: `Feature ${duplicate!.id} was merged into feature ${keep!.id} before.`,
    resolution: 'Merge the feature it was merged into instead, or show it again first (PATCH with visible: true).',
  });
});

test('bad input is a clear 400 or 404, and nothing changes', async () => {
  const before = (await running.call('/roadmap')).text;
  const cases: [string, string, unknown, number, string][] = [
    ['POST', '/roadmap', { category: 'formats' }, 400, 'invalid_request'],
    ['POST', '/roadmap', { title: 'X', category: 'spaceships' }, 400, 'invalid_request'],
    ['POST', '/roadmap', { title: 'X', category: 'app', id: 4 }, 400, 'invalid_request'],
    ['PATCH', '/roadmap/1', {}, 400, 'invalid_request'],
    ['PATCH', '/roadmap/1', { release_version: 'soon' }, 400, 'invalid_request'],
    ['PATCH', '/roadmap/999', { visible: true }, 404, 'feature_not_found'],
    ['PATCH', '/roadmap/abc', { visible: true }, 404, 'feature_not_found'],
    ['POST', '/roadmap/1/merge', { into: 1 }, 400, 'merge_into_itself'],
    ['POST', '/roadmap/1/merge', { into: 999 }, 404, 'feature_not_found'],
    ['POST', '/roadmap/1/merge', { into: '2' }, 400, 'invalid_request'],
  ];
  for (const [method, path, json, status, code] of cases) {
    const answer = await running.call(path, { method, json });
    assert.is(answer.status, status, `${method} ${path} ${JSON.stringify(json)}`);
    assert.is((answer.json() as { code: string }).code, code);
  }
  assert.is((await running.call('/roadmap')).text, before);
});

test.run();
