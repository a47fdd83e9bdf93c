/** GET /api/v1/version. */
import type { Spec } from '../_contract.ts';
import { expectJson } from './_expect.ts';

export const versionSpec: Spec = (it) => {
  it('GET /api/v1/version is 200 with the version and the MSI URL', async (server) => {
    const response = await server.request({ path: '/api/v1/version', from: server.newClient() });
    expectJson(response, 200, { version: server.served.version, downloadUrl: server.served.download.msiUrl });
  }, { smoke: true });
};
