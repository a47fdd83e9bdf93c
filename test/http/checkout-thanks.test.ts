/**
 * The simulator's own thanks page, for a server with no site of the vendor's own to return to (a plain
 * `npm start` on the example config): Pay sends the buyer to GET /checkout/thanks?session_id=..., which
 * shows the keys GET /api/v1/checkout/status answers, escaped, with no script; a session not paid, a
 * refunded one and an unknown one each say so. Over a real socket.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SIMULATOR_KEY_SHAPE } from '../_licenses.ts';
import { exampleContent } from '../_setup.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const test = suite<{ server: InProcessServer }>('the simulator thanks page');
test.before.each(async (context) => {
  context.server = await startInProcessServer({ simulator: { thanksPage: true, offer: exampleContent().offer } });
});
test.after.each(async ({ server }) => server.close());

async function create(server: InProcessServer, product: string): Promise<string> {
  const created = await server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ product }),
  });
  assert.is(created.status, 200, created.text);
  return (created.json() as { sessionId: string }).sessionId;
}

test('Pay sends the buyer to the thanks page, which shows the keys of the public checkout status', async ({ server }) => {
  const sessionId = await create(server, 'plus_bundle');
  const simulator = await server.request({ path: `/checkout/simulator/${sessionId}` });
  assert.is(simulator.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'");
  const paid = await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: FORM, body: 'email=ada%40example.com' });
  assert.equal([paid.status, paid.headers['location']], [303, `/checkout/thanks?session_id=${sessionId}`]);
  const page = await server.request({ path: paid.headers['location']! });
  assert.is(page.status, 200);
  assert.equal([page.headers['content-type'], page.headers['content-security-policy'], page.headers['cache-control'], page.headers['referrer-policy']], [
    'text/html; charset=utf-8',
    CSP,
    'no-store',
    'no-referrer',
  ]);
  const status = (await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as {
    standardLicenseKey: string;
    plusLicenseKey: string;
  };
  assert.match(status.standardLicenseKey, SIMULATOR_KEY_SHAPE);
  assert.match(page.text, '<h1>Thank you for your purchase</h1>');
  assert.match(page.text, `<code id="standard-key">${status.standardLicenseKey}</code>`);
  assert.match(page.text, `<code id="plus-key">${status.plusLicenseKey}</code>`);
  assert.not.match(page.text, '<script');
  assert.match(page.text, 'set <code>checkoutReturn</code> in the config file');
  // Coming back to the simulator's page: its link leads to the thanks page.
  assert.match(
    (await server.request({ path: `/checkout/simulator/${sessionId}` })).text,
    `<a id="return" href="/checkout/thanks?session_id=${sessionId}">Return to the site</a>`,
  );
});

test('Cancel stays on the simulator page; a session not paid, a refunded one and unknown or bad ids say so', async ({ server }) => {
  const sessionId = await create(server, 'standard');
  const cancelled = await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/cancel` });
  assert.is(cancelled.headers['location'], `/checkout/simulator/${sessionId}?cancelled=1`);
  const waiting = await server.request({ path: `/checkout/thanks?session_id=${sessionId}` });
  assert.equal([
    waiting.status,
    waiting.text.includes('<p id="waiting">The payment is not confirmed yet (pending). Reload this page in a moment to see your license keys.</p>'),
  ], [200, true]);
  await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: FORM, body: '' });
  await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/refund`, headers: FORM, body: '' });
  assert.match(
    (await server.request({ path: `/checkout/thanks?session_id=${sessionId}` })).text,
    '<p id="revoked">This order was paid, then refunded or disputed: it holds no license keys.</p>',
  );
  const unknown = await server.request({ path: `/checkout/thanks?session_id=cs_sim_${'A'.repeat(32)}` });
  assert.equal([unknown.status, unknown.text.includes('<p id="refusal">No checkout session has this session_id.</p>')], [400, true]);
  const bad = await server.request({ path: '/checkout/thanks?session_id=%3Cscript%3Ealert(1)%3C/script%3E' });
  assert.is(bad.status, 400);
  assert.match(bad.text, '<h1>No license keys to show</h1>');
  assert.not.match(bad.text, '<script>', 'nothing of the request is written unescaped');
});

test.run();
