import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';
import { stripeFixture } from '../stripe/_fixtures.ts';

test('with the simulator, the notification path answers 404 notifications_unavailable on both paths', async () => {
  const { app } = await createTestApp();
  for (const path of ['/api/v1/webhooks/gateway', '/api/webhooks/gateway']) {
    const response = await app.handle(coreRequest({ method: 'POST', path, json: { id: 'evt_1' } }));
    assert.is(response.status, 404);
    assert.equal(bodyJson(response), {
      code: 'notifications_unavailable',
      message: 'The payment gateway of this server (simulator) sends no notifications, so this path accepts none.',
      resolution: 'Point the provider at this path only when the server runs a gateway that sends notifications.',
    });
  }
});

test('with Stripe but no webhook secret, notifications are refused as unavailable', async () => {
  const f = await stripeFixture({ webhookSecret: null });
  try {
    const { app } = await createTestApp({ gateway: f.gateway });
    const response = await app.handle(coreRequest({ method: 'POST', path: '/api/v1/webhooks/gateway', json: {} }));
    assert.is(response.status, 404);
    assert.is((bodyJson(response) as { message: string }).message, 'This server accepts no Stripe notifications: no webhook secret is configured.');
  } finally {
    await f.close();
  }
});

test('a notification over the body limit is 413 before any signature work', async () => {
  const f = await stripeFixture();
  try {
    const { app } = await createTestApp({ gateway: f.gateway, bodyLimit: 1024 });
    const response = await app.handle(
      coreRequest({ method: 'POST', path: '/api/v1/webhooks/gateway', headers: { 'stripe-signature': 't=1,v1=00' }, body: 'x'.repeat(1025) }),
    );
    assert.is(response.status, 413);
    assert.is((bodyJson(response) as { code: string }).code, 'payload_too_large');
  } finally {
    await f.close();
  }
});

test('/openapi.json documents the notification path as operator-facing, with its signature header', async () => {
  const { app } = await createTestApp();
  const doc = bodyJson(await app.handle(coreRequest({ path: '/openapi.json' }))) as {
    paths: Record<string, { post?: { tags: string[]; parameters: unknown[]; responses: Record<string, unknown> } }>;
    tags: { name: string; description: string }[];
  };
  const op = doc.paths['/api/v1/webhooks/gateway']?.post;
  assert.ok(op);
  assert.equal(op.tags, ['Operator']);
  assert.equal(op.parameters, [
    {
      name: 'Stripe-Signature',
      in: 'header',
      required: true,
      schema: {
        type: 'string',
        minLength: 1,
        description:
          'The provider\'s signature of the raw body, e.g. Stripe\'s "t=<unix seconds>,v1=<hex HMAC-SHA-256>" (several v1 entries while a secret is rolled).',
      },
    },
  ]);
  assert.equal(Object.keys(op.responses), ['200', '400', '404', '413', '429', '500']);
  assert.ok(doc.paths['/api/webhooks/gateway']?.post);
  assert.is(
    doc.tags.find((t) => t.name === 'Operator')?.description,
    "Operator-facing endpoints: the payment provider's notifications and the load-balancer probes, never called by the website or the desktop app.",
  );
});

test.run();
