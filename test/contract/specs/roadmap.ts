/** GET and POST /api/v1/roadmap: the visible features and the per-client vote toggle. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { expectError, expectJson, JSON_BODY } from './_expect.ts';

export const roadmapSpec: Spec = (it) => {
  it('GET lists the 4 visible features in id order, not voted', async (server) => {
    const response = await server.request({ path: '/api/v1/roadmap', from: server.newClient() });
    assert.is(response.status, 200);
    const { features } = response.json() as { features: { id: number; voted: boolean; vote_count: number }[] };
    assert.equal(features.map((f) => f.id), [1, 2, 3, 4]);
    assert.equal(features[0], {
      id: 1,
      title: 'Quattro Pro (.wb1, .wb2, .qpw) input',
      description: 'Open Quattro Pro workbooks alongside Lotus 1-2-3 files.',
      category: 'formats',
      vote_count: 0,
      voted: false,
      release_version: null,
    });
  });

  it('POST toggles the vote of the calling address, seen per client', async (server) => {
    const [alice, bob] = [server.newClient(), server.newClient()];
    const vote = (from: string) =>
      server.request({ method: 'POST', path: '/api/v1/roadmap', headers: JSON_BODY, body: '{"featureId":3}', from });
    expectJson(await vote(alice), 200, { voted: true, vote_count: 1 });
    expectJson(await vote(bob), 200, { voted: true, vote_count: 2 });
    expectJson(await vote(alice), 200, { voted: false, vote_count: 1 });
    const list = (await server.request({ path: '/api/v1/roadmap', from: bob })).json() as { features: { id: number; voted: boolean }[] };
    assert.is(list.features.find((f) => f.id === 3)?.voted, true);
  }, { smoke: true });

  it('a hidden feature is 404 feature_not_found', async (server) => {
    const response = await server.request({ method: 'POST', path: '/api/v1/roadmap', headers: JSON_BODY, body: '{"featureId":5}', from: server.newClient() });
    expectError(response, 404, 'feature_not_found', 'No visible roadmap feature has id 5.');
  });
};
