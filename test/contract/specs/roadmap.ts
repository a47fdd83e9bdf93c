/**
 * GET and POST /api/v1/roadmap: the example's features and the error of a hidden one. The vote toggle, per
 * client, is the kit's (roadmap-vote-toggles, roadmap-vote-per-address, roadmap-voted-reflects-caller).
 */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { expectError, JSON_BODY } from './_expect.ts';

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

  it('a hidden feature is 404 feature_not_found', async (server) => {
    const response = await server.request({ method: 'POST', path: '/api/v1/roadmap', headers: JSON_BODY, body: '{"featureId":5}', from: server.newClient() });
    expectError(response, 404, 'feature_not_found', 'No visible roadmap feature has id 5.');
  });
};
