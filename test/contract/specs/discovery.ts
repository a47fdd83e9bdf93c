/** GET /openapi.json and GET /llms.txt. */
import * as assert from 'uvu/assert';
import type { Spec } from '../_contract.ts';

export const discoverySpec: Spec = (it) => {
  it('GET /openapi.json is OpenAPI 3.1.1 and documents the /api aliases too', async (server) => {
    const response = await server.request({ path: '/openapi.json', from: server.newClient() });
    assert.is(response.status, 200);
    assert.is(response.headers['content-type'], 'application/json');
    const document = response.json() as { openapi: string; paths: Record<string, unknown> };
    assert.is(document.openapi, '3.1.1');
    assert.ok('/api/v1/pricing' in document.paths && '/api/pricing' in document.paths);
  }, { smoke: true });

  it('GET /llms.txt is UTF-8 text with an H1', async (server) => {
    const response = await server.request({ path: '/llms.txt', from: server.newClient() });
    assert.is(response.status, 200);
    assert.is(response.headers['content-type'], 'text/plain; charset=utf-8');
    assert.ok(response.text.startsWith('# '), response.text.slice(0, 80));
  });
};
