/** GET /api/v1/pricing: the configured offer (the spec's checks of it are the kit's, ../_kit.ts). */
import type { Spec } from '../_contract.ts';
import { expectJson } from './_expect.ts';

export const pricingSpec: Spec = (it) => {
  it('GET /api/v1/pricing is 200 with the configured offer', async (server) => {
    const response = await server.request({ path: '/api/v1/pricing', from: server.newClient() });
    expectJson(response, 200, server.served.offer);
  }, { smoke: true });
};
