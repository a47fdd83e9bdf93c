/** POST /api/v1/checkout/create and GET /api/v1/checkout/status. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';
import { expectError, expectJson } from './_expect.ts';

export const checkoutSpec: Spec = (it) => {
  it('create without a body is 200 {sessionId, url}, and its status is pending without keys', async (server) => {
    const from = server.newClient();
    const created = await server.request({ method: 'POST', path: '/api/v1/checkout/create', from });
    assert.is(created.status, 200, created.text);
    const { sessionId, url } = created.json() as { sessionId: string; url: string };
    assert.match(sessionId, /^cs_sim_[A-Za-z0-9_-]{32}$/);
    assert.is(url, `${server.publicBaseUrl}/checkout/simulator/${sessionId}`);
    const status = await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}`, from });
    expectJson(status, 200, { status: 'pending', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
  }, { smoke: true });

  it('the simulator page is HTML with nosniff and Referrer-Policy: no-referrer (its address holds the session id)', async (server) => {
    const from = server.newClient();
    const { url } = (await server.request({ method: 'POST', path: '/api/v1/checkout/create', from })).json() as { url: string };
    const page = await server.request({ path: new URL(url).pathname, from });
    assert.is(page.status, 200);
    assert.is(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.is(page.headers['x-content-type-options'], 'nosniff');
    assert.is(page.headers['referrer-policy'], 'no-referrer');
  });

  it('status without session_id is 400 invalid_request', async (server) => {
    const response = await server.request({ path: '/api/v1/checkout/status', from: server.newClient() });
    expectError(response, 400, 'invalid_request', 'Query parameter "session_id" is required: a non-empty id of at most 255 characters.');
  });

  it('status of an unknown session is 400 unknown_session', async (server) => {
    const response = await server.request({ path: '/api/checkout/status?session_id=cs_sim_nope', from: server.newClient() });
    expectError(response, 400, 'unknown_session', 'No checkout session has this session_id.');
  });
};
