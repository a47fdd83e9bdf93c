/**
 * The buyer's round trip through the simulator over a real socket: the page shows what is bought and its
 * price, Pay sends the browser to the success address with the session id, Cancel to the cancel address,
 * and the page's CSP lets its forms redirect there.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { exampleContent } from '../_setup.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';

const RETURN_TO = { successUrl: 'https://shop.example/thanks?session_id={CHECKOUT_SESSION_ID}', cancelUrl: 'https://shop.example/pricing' };
const CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' https://shop.example";

const roundTrip = suite<{ server: InProcessServer }>('checkout return addresses');
roundTrip.before.each(async (context) => {
  context.server = await startInProcessServer({ simulator: { returnTo: RETURN_TO, offer: exampleContent().offer } });
});
roundTrip.after.each(async ({ server }) => server.close());

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

for (
  const [product, heading, price] of [
    ['standard', 'Legacy Sheet Converter: Standard license', '$49'],
    ['plus_bundle', 'Legacy Sheet Converter: Plus bundle (standard + Plus)', '$64'],
  ] as const
) {
  roundTrip(`the ${product} page names the product and its price, and Pay sends the buyer to the success address`, async ({ server }) => {
    const sessionId = await create(server, product);
    const page = await server.request({ path: `/checkout/simulator/${sessionId}` });
    assert.is(page.status, 200);
    assert.is(page.headers['content-security-policy'], CSP);
    assert.match(page.text, `<h1>${heading.replace('&', '&#38;')}</h1>`);
    assert.match(page.text, `<p id="price">Price: <strong>${price}</strong> (simulated: nothing is charged)</p>`);
    const paid = await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay` });
    assert.is(paid.status, 303);
    assert.is(paid.headers['location'], `https://shop.example/thanks?session_id=${sessionId}`);
    const status = await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` });
    assert.is((status.json() as { status: string }).status, 'paid');
    // Coming back to the page later: it links back to the site instead of offering Pay again.
    const after = await server.request({ path: `/checkout/simulator/${sessionId}` });
    assert.match(after.text, `<a id="return" href="https://shop.example/thanks?session_id=${sessionId}">Return to the site</a>`);
    assert.not.match(after.text, '/pay"');
  });
}

roundTrip('Cancel sends the buyer to the cancel address and leaves the session payable', async ({ server }) => {
  const sessionId = await create(server, 'standard');
  const cancelled = await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/cancel` });
  assert.is(cancelled.status, 303);
  assert.is(cancelled.headers['location'], 'https://shop.example/pricing');
  const status = await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` });
  assert.equal(status.json(), { status: 'pending', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
});

roundTrip("a delayed payment stays on the simulator, whose buttons are the developer's", async ({ server }) => {
  const sessionId = await create(server, 'standard');
  const delayed = await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/delay` });
  assert.is(delayed.headers['location'], `/checkout/simulator/${sessionId}`);
  const completed = await server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay` });
  assert.is(completed.headers['location'], `https://shop.example/thanks?session_id=${sessionId}`);
});

roundTrip.run();
