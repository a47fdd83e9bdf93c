/**
 * A product website on its own origin, as a site owner would write it against the API: a pricing page
 * whose buttons create a checkout (a cross-origin fetch) and go to its `url`, a thanks page that reads
 * the keys with the session id from its address, and the installer file itself.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Shop {
  /** The site's origin, e.g. http://127.0.0.1:40123. */
  origin: string;
  close(): Promise<void>;
}

export const INSTALLER_PATH = '/LegacySheetConverter-2.4.1-x64.msi';

const pricingPage = (api: string) =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pricing</title></head>
<body>
<h1>Pricing</h1>
<p id="notice"></p>
<button id="buy-standard" data-product="standard">Buy the standard license</button>
<button id="buy-plus-bundle" data-product="plus_bundle">Buy the Plus bundle</button>
<script>
if (new URLSearchParams(location.search).get('cancelled') === '1') document.getElementById('notice').textContent = 'Checkout cancelled.';
for (const button of document.querySelectorAll('button')) {
  button.addEventListener('click', async () => {
    const response = await fetch(${JSON.stringify(api)} + '/api/v1/checkout/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ product: button.dataset.product, channel: 'msi' }),
    });
    const { url } = await response.json();
    location.href = url;
  });
}
</script>
</body></html>`;

const thanksPage = (api: string) =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Thank you</title></head>
<body>
<h1>Thank you</h1>
<p>Your license keys:</p>
<pre id="keys">loading…</pre>
<script>
const sessionId = new URLSearchParams(location.search).get('session_id');
fetch(${JSON.stringify(api)} + '/api/v1/checkout/status?session_id=' + encodeURIComponent(sessionId))
  .then((response) => response.json())
  .then((status) => {
    const lines = [['Standard', status.standardLicenseKey], ['Plus', status.plusLicenseKey]]
      .filter(([, key]) => key)
      .map(([name, key]) => name + ': ' + key);
    document.getElementById('keys').textContent = status.status + '\\n' + lines.join('\\n');
  });
</script>
</body></html>`;

/**
 * Starts the site on 127.0.0.1.
 *
 * @param api The API's address, which the pages call.
 */
export async function startShop(api: () => string): Promise<Shop> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (path === INSTALLER_PATH) {
      response.writeHead(200, { 'content-type': 'application/x-msi', 'content-disposition': 'attachment; filename="LegacySheetConverter.msi"' });
      response.end('MSI');
      return;
    }
    const page = path === '/pricing.html' ? pricingPage(api()) : path === '/thanks.html' ? thanksPage(api()) : null;
    response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(page ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
