/** Unknown paths and wrong methods. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { expectError } from './_expect.ts';

export const errorsSpec: Spec = (it) => {
  it('an unknown path is 404 not_found naming the path', async (server) => {
    const response = await server.request({ path: '/api/v1/convert', from: server.newClient() });
    expectError(response, 404, 'not_found', 'No API endpoint exists at "/api/v1/convert".');
  }, { smoke: true });

  it('an unknown path of 300 characters is quoted up to 200 of them, then "…"', async (server) => {
    const path = `/api/v1/${'a'.repeat(292)}`;
    const response = await server.request({ path, from: server.newClient() });
    expectError(response, 404, 'not_found', `No API endpoint exists at "${path.slice(0, 200)}…".`);
  });

  it('DELETE on a GET path is 405 with Allow', async (server) => {
    const response = await server.request({ method: 'DELETE', path: '/api/v1/pricing', from: server.newClient() });
    expectError(response, 405, 'method_not_allowed', 'DELETE is not allowed on /api/v1/pricing; use GET, HEAD, OPTIONS.');
    assert.is(response.headers['allow'], 'GET, HEAD, OPTIONS');
  }, { smoke: true });

  it('HEAD answers the GET headers without a body', async (server) => {
    const response = await server.request({ method: 'HEAD', path: '/api/v1/version', from: server.newClient() });
    assert.is(response.status, 200);
    assert.is(response.headers['content-type'], 'application/json');
    assert.is(response.text, '');
  });
};
