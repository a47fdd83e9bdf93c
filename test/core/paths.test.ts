/**
 * isAppPath: exactly the paths the app answers, so that a host mounting it beside its own routes
 * (docs/embedding.md) forwards every one of them and nothing else.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { SIMULATOR_PATH } from '../../adapters/simulator/index.ts';
import { ALIAS_PREFIX, API_ROUTES, V1_PREFIX } from '../../core/api.ts';
import { createApp } from '../../core/app.ts';
import { PROBE_ROUTES } from '../../core/operations/probes.ts';
import { WINDOWS_ONLY_PATH } from '../../core/operations/windows-only.ts';
import { isAppPath } from '../../core/http/paths.ts';
import type { PaymentGateway } from '../../core/ports/ports.ts';
import { bodyText, coreRequest, createTestApp, exampleContent } from '../_setup.ts';

test('every route the app serves is an app path', () => {
  const served = [
    ...API_ROUTES.flatMap((route) => [V1_PREFIX + route.path, ALIAS_PREFIX + route.path]),
    ...PROBE_ROUTES.map((route) => route.path),
    '/llms.txt',
    '/openapi.json',
    WINDOWS_ONLY_PATH,
    `${SIMULATOR_PATH}/cs_sim_x`,
    `${SIMULATOR_PATH}/cs_sim_x/pay`,
    '/api/v1/webhooks/gateway',
    '/healthz/',
  ];
  for (const path of served) assert.ok(isAppPath(path), path);
});

test("the site's own paths are not", () => {
  for (const path of ['/', '/pricing', '/api', '/apiary', '/checkout', '/checkoutx/1', '/healthz/deep', '/llms.txt.bak', '/windows-only-x']) {
    assert.not.ok(isAppPath(path), path);
  }
});

test('a path the app does not answer is still its JSON 404 under an app prefix', async () => {
  const t = await createTestApp();
  const answer = await t.app.handle(coreRequest({ path: '/api/v2/pricing' }));
  assert.is(answer.status, 404);
  assert.match(bodyText(answer), '"code":"not_found"');
});

test('createApp refuses a gateway whose pages lie outside the app paths, which hosts would never forward', async () => {
  const storage = createMemoryStorage();
  const gateway: PaymentGateway = {
    name: 'elsewhere',
    routes: [{ method: 'GET', path: '/pay/:id', handle: async () => ({ status: 200, headers: {}, body: null }) }],
    createCheckout: async () => ({ sessionId: 'x', url: 'http://localhost/pay/x' }),
    checkStatus: async () => ({ status: 'pending' }),
  };
  try {
    await createApp({ content: exampleContent(), version: { current: () => '2.4.1' }, storage, gateway });
    assert.unreachable('createApp accepted the gateway');
  } catch (error) {
    assert.is((error as Error).message, 'gateway elsewhere: route /pay/:id lies outside APP_PATH_PREFIXES (use /checkout/...)');
  }
});

test.run();
