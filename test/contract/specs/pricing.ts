/** GET /api/v1/pricing and its alias. */
import type { Spec } from '../_contract.ts';
import { expectJson } from './_expect.ts';

export const pricingSpec: Spec = (it) => {
  it('GET /api/v1/pricing is 200 with the configured offer', async (server) => {
    const response = await server.request({ path: '/api/v1/pricing', from: server.newClient() });
    expectJson(response, 200, server.served.offer);
  }, { smoke: true });

  it('GET /api/pricing (alias) is 200 with the same offer', async (server) => {
    expectJson(await server.request({ path: '/api/pricing', from: server.newClient() }), 200, server.served.offer);
  });
};
