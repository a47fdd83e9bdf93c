/** The typed client (converter-site-api/client) calls every operation of the target, answers validated. */
import * as assert from 'uvu/assert';
import { ApiClientError, createClient } from '../../../client/index.ts';
import type { Spec } from '../_contract.ts';

export const clientSpec: Spec = (it) => {
  it('every operation through the client, with schema validation, the rate-limit state and an error', async (server) => {
    const api = createClient({ baseUrl: server.baseUrl, fetch: server.fetch, validate: true });
    assert.equal(await api.getPricing(), server.served.offer);
    const version = await api.withMeta.getVersion();
    assert.equal(version.data, { version: server.served.version, downloadUrl: server.served.download.msiUrl });
    assert.equal(version.rateLimit, { limit: 120, remaining: 118, reset: version.rateLimit?.reset ?? -1 });
    assert.equal(await api.submitFeedback({ description: 'sent by the typed client', rating: 4 }), { success: true });
    const [feature] = (await api.listRoadmap()).features;
    assert.ok(feature, 'the roadmap lists a feature');
    const voted = await api.toggleRoadmapVote({ featureId: feature.id });
    assert.equal(voted, { voted: true, vote_count: feature.vote_count + 1 });
    assert.equal(await api.toggleRoadmapVote({ featureId: feature.id }), { voted: false, vote_count: feature.vote_count });
    const checkout = await api.createCheckout({ product: 'standard', channel: 'store' });
    assert.is((await api.getCheckoutStatus({ session_id: checkout.sessionId })).status, 'pending');
    assert.is(await api.downloadInstaller({ source: 'contract', force: '1' }), server.served.download.msiUrl);
    assert.match(await api.getLlmsTxt(), /^# /);
    assert.is((await api.getOpenApi()).openapi, '3.1.1');
    const missing = await api.getCheckoutStatus({ session_id: 'cs_sim_nope' }).catch((error: unknown) => error);
    assert.instance(missing, ApiClientError);
    const { code, status, rateLimit } = missing as ApiClientError;
    assert.equal([code, status, rateLimit?.limit, rateLimit?.remaining], ['unknown_session', 400, 120, 108]);
  }, { smoke: true });
};
