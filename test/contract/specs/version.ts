/** GET /api/v1/version. */
import type { Spec } from '../_contract.ts';
import * as assert from 'uvu/assert';
import { refusal } from '../../_update-signature.ts';
import { expectJson } from './_expect.ts';

export const versionSpec: Spec = (it) => {
  it('GET /api/v1/version is 200 with the version and the MSI URL', async (server) => {
    const response = await server.request({ path: '/api/v1/version', from: server.newClient() });
    expectJson(response, 200, { version: server.served.version, downloadUrl: server.served.download.msiUrl });
  }, { smoke: true });

  it('GET /api/v1/version is signed (RFC 9421, ed25519) over its Content-Digest, and an independent check accepts it', async (server) => {
    const response = await server.request({ path: '/api/v1/version', from: server.newClient() });
    const keyid = /;keyid="([A-Za-z0-9_-]+)"/.exec(response.headers['signature-input'] ?? '')?.[1] ?? 'none';
    const headers = Object.fromEntries(Object.entries(response.headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
    // Checked at its own `created` (targets run on other clocks); expiry is test/core/answer-signature.test.ts's.
    const created = Number(/;created=(\d+)/.exec(response.headers['signature-input'] ?? '')?.[1]);
    assert.is(refusal({ status: response.status, headers, body: response.text }, keyid, created), null);
  });
};
