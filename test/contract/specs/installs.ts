/** POST /api/v1/installs (an addition to the spec), on every runtime: 204 with no body at both paths, 400 and 404 as JSON errors. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { expectError, JSON_BODY } from './_expect.ts';

const ID = 'AAECAwQFBgcICQoLDA0ODw';

export const installsSpec: Spec = (it) => {
  it('a ping is 204 with no body and no Content-Type, metered, at the /api alias too', async (server) => {
    const from = server.newClient();
    for (const path of ['/api/v1/installs', '/api/installs']) {
      const answer = await server.request({
        method: 'POST',
        path,
        headers: JSON_BODY,
        body: JSON.stringify({ channel: 'stable', version: '2.4.1', installId: ID }),
        from,
      });
      assert.equal([answer.status, answer.text, answer.headers['content-type']], [204, '', undefined], path);
      assert.ok(answer.headers['ratelimit-limit'], `${path}: the rate-limit headers`);
    }
  }, { smoke: true });

  it('a malformed install id is 400 invalid_request naming it; an unknown channel is 404 not_found', async (server) => {
    const from = server.newClient();
    const post = (json: unknown) => server.request({ method: 'POST', path: '/api/v1/installs', headers: JSON_BODY, body: JSON.stringify(json), from });
    expectError(
      await post({ channel: 'stable', version: '2.4.1', installId: 'not-an-id' }),
      400,
      'invalid_request',
      'Field "installId" must be an install id: 16 bytes in base64url without padding (22 characters of A-Z a-z 0-9 - _).',
    );
    expectError(await post({ channel: 'nightly', version: '2.4.1', installId: ID }), 404, 'not_found', 'No update channel is named "nightly".');
  });
};
