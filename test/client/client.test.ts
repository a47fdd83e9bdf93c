/**
 * The typed client against the server over a real socket (node:http on 127.0.0.1, manual clock): every
 * operation, error answers, the rate-limit state, 429 retries and response validation.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiClientError, type ClientOptions, createClient } from '../../client/index.ts';
import { ERROR_CATALOGUE } from '../../core/http/errors.ts';
import { startTestServer, type TestServer } from '../_setup.ts';

const test = suite<{ server: TestServer; base: string }>('client', {} as { server: TestServer; base: string });

test.before.each(async (context) => {
  context.server = await startTestServer();
  context.base = `http://127.0.0.1:${context.server.port}`;
});
test.after.each(async ({ server }) => {
  await server.close();
});

/** The rejection of a call, which must be an ApiClientError. */
async function rejection(call: Promise<unknown>): Promise<ApiClientError> {
  try {
    await call;
  } catch (error) {
    assert.instance(error, ApiClientError);
    return error as ApiClientError;
  }
  throw new Error('the call resolved');
}

test('every read resolves to the body the server answers', async ({ server, base }) => {
  const api = createClient({ baseUrl: base });
  assert.equal(await api.getPricing(), server.content.offer);
  assert.equal(await api.getVersion(), { version: '2.4.1', downloadUrl: server.content.download.msiUrl });
  const visible = server.content.roadmap.filter((feature) => feature.visible);
  const { features } = await api.listRoadmap();
  assert.equal(features.map((feature) => [feature.id, feature.title, feature.vote_count, feature.voted]), visible.map((f) => [f.id, f.title, 0, false]));
  assert.match(await api.getLlmsTxt(), /^# /);
  const openapi = await api.getOpenApi();
  assert.is(openapi.openapi, '3.1.1');
  assert.is(openapi.info.version, '1.0.0');
});

test('writes send their JSON body: feedback, a vote toggled twice, a checkout and its status', async ({ server, base }) => {
  const api = createClient({ baseUrl: `${base}/` });
  assert.equal(await api.submitFeedback({ description: 'Converts my .wk3 files', rating: 5, type: 'review' }), { success: true });
  assert.is(await api.reportInstall({ channel: 'stable', version: '2.4.1', installId: 'AAECAwQFBgcICQoLDA0ODw' }), undefined, 'a 204 resolves to undefined');
  const pinged = await api.withMeta.reportInstall({ channel: 'stable', version: '2.4.1', installId: 'AAECAwQFBgcICQoLDA0ODw' });
  assert.equal([pinged.status, pinged.data, pinged.rateLimit?.limit], [204, undefined, 120]);
  const featureId = server.content.roadmap.find((feature) => feature.visible)!.id;
  assert.equal(await api.toggleRoadmapVote({ featureId }), { voted: true, vote_count: 1 });
  assert.equal(await api.toggleRoadmapVote({ featureId }), { voted: false, vote_count: 0 });
  const created = await api.createCheckout({ product: 'plus_bundle', channel: 'msi' });
  assert.match(created.sessionId, /^cs_/);
  assert.equal(await api.getCheckoutStatus({ session_id: created.sessionId }), {
    status: 'pending',
    licenseKey: null,
    standardLicenseKey: null,
    plusLicenseKey: null,
  });
  const standard = await api.createCheckout();
  assert.is.not(standard.sessionId, created.sessionId);
  // An addition to the spec: the same 202 body for any address.
  const resent = await api.withMeta.resendLicenses({ email: 'ann@example.com' });
  assert.equal([resent.status, resent.data], [202, {
    accepted: true,
    message: 'If this address has valid licenses on file, a message with them is on its way to it.',
  }]);
});

test('downloadInstaller resolves to the redirect target; downloadInstallerLink builds the address', async ({ server, base }) => {
  const api = createClient({ baseUrl: base });
  assert.is(await api.downloadInstaller(), 'http://localhost:8080/windows-only');
  assert.is(await api.downloadInstaller({ source: 'docs', force: '1' }), server.content.download.msiUrl);
  assert.is(api.downloadInstallerLink({ source: 'docs', force: '1' }), `${base}/api/v1/download?source=docs&force=1`);
  assert.is(createClient({ baseUrl: 'https://www.example.com/site/' }).downloadInstallerLink(), 'https://www.example.com/site/api/v1/download');
  const refused = await rejection(api.downloadInstaller({ source: 'not a label!' }));
  assert.equal([refused.code, refused.status], ['invalid_parameter', 400]);
});

test('an error answer rejects with its code, message, resolution, status and rate-limit state', async ({ base }) => {
  const api = createClient({ baseUrl: base });
  const missing = await rejection(api.toggleRoadmapVote({ featureId: 999 }));
  assert.equal(
    { code: missing.code, status: missing.status, rateLimit: missing.rateLimit, operationId: missing.operationId },
    { code: 'feature_not_found', status: 404, rateLimit: { limit: 120, remaining: 119, reset: 60 }, operationId: 'toggleRoadmapVote' },
  );
  assert.is(missing.resolution, ERROR_CATALOGUE.feature_not_found.resolution);
  const unknown = await rejection(api.getCheckoutStatus({ session_id: 'cs_sim_nope' }));
  assert.equal([unknown.code, unknown.status, unknown.message], ['unknown_session', 400, 'No checkout session has this session_id.']);
  const blank = await rejection(api.submitFeedback({ description: '   ' }));
  assert.equal([blank.code, blank.status], ['description_required', 400]);
});

test('withMeta gives the body with the status, headers and rate-limit state of each answer', async ({ server, base }) => {
  const api = createClient({ baseUrl: base });
  const first = await api.withMeta.getVersion();
  assert.equal([first.status, first.rateLimit, first.headers.get('cache-control')], [200, { limit: 120, remaining: 119, reset: 60 }, 'no-store']);
  server.clock.advance(20_000);
  const second = await api.withMeta.submitFeedback({ description: 'again' });
  assert.equal([second.status, second.data, second.rateLimit], [201, { success: true }, { limit: 120, remaining: 118, reset: 40 }]);
});

/** Uses up the quota of 127.0.0.1. */
async function exhaust(base: string): Promise<void> {
  const api = createClient({ baseUrl: base });
  for (let i = 0; i < 120; i++) await api.getVersion();
}

test('past the quota a call rejects with rate_limited, 429 and retryAfter', async ({ base }) => {
  await exhaust(base);
  const limited = await rejection(createClient({ baseUrl: base }).getPricing());
  assert.equal([limited.code, limited.status, limited.rateLimit], ['rate_limited', 429, { limit: 120, remaining: 0, reset: 60, retryAfter: 60 }]);
});

test('retry waits Retry-After through the given sleep and succeeds in the next window', async ({ server, base }) => {
  await exhaust(base);
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void (sleeps.push(ms), server.clock.advance(ms));
  const api = createClient({ baseUrl: base, retry: { retries: 2, sleep } });
  assert.equal(await api.withMeta.getVersion().then((answer) => answer.rateLimit), { limit: 120, remaining: 119, reset: 60 });
  assert.equal(sleeps, [60_000]);
});

test('retry gives up after its retries, and never waits longer than maxWaitSeconds', async ({ base }) => {
  await exhaust(base);
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);
  const limited = await rejection(createClient({ baseUrl: base, retry: { retries: 2, sleep } }).getVersion());
  assert.is(limited.code, 'rate_limited');
  assert.equal(sleeps, [60_000, 60_000]);
  await rejection(createClient({ baseUrl: base, retry: { retries: 2, sleep, maxWaitSeconds: 30 } }).getVersion());
  assert.equal(sleeps, [60_000, 60_000]);
});

/** A fetch that changes the pricing answer on its way, as a broken proxy would. */
const tampering: ClientOptions['fetch'] = async (input, init) => {
  const answer = await fetch(input, init);
  const body = (await answer.json()) as Record<string, unknown>;
  return new Response(JSON.stringify({ ...body, currency: 'EUR' }), { status: answer.status, headers: answer.headers });
};

test('validate: true rejects an answer that breaks the schema; off by default', async ({ base }) => {
  const loose = await createClient({ baseUrl: base, fetch: tampering }).getPricing();
  assert.is(loose.currency as string, 'EUR');
  const broken = await rejection(createClient({ baseUrl: base, fetch: tampering, validate: true }).getPricing());
  assert.equal([broken.code, broken.status], ['invalid_response', 200]);
  assert.match(broken.message, /^getPricing: the answer breaks Pricing at currency: /);
  assert.equal(await createClient({ baseUrl: base, validate: true }).getVersion(), await createClient({ baseUrl: base }).getVersion());
});

test('an answer that is not the API error body rejects with invalid_response', async ({ base }) => {
  const gateway: ClientOptions['fetch'] = async () => new Response('<html>Bad gateway</html>', { status: 502 });
  const failed = await rejection(createClient({ baseUrl: base, fetch: gateway }).getPricing());
  assert.equal([failed.code, failed.status, failed.message], ['invalid_response', 502, "getPricing: HTTP 502 without the API's error body."]);
  const wrong = await rejection(createClient({ baseUrl: `${base}/elsewhere` }).getPricing());
  assert.equal([wrong.code, wrong.status], ['not_found', 404]);
});

test.run();
