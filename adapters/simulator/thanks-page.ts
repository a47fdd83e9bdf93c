/**
 * The thanks page the simulator returns the buyer to when no site of the vendor's own is configured (a
 * plain `npm start` on the example config): it reads the session's keys from the public checkout status,
 * as a site's thanks page would, and shows them. Server-rendered, every value escaped, no script.
 *
 * @module
 */
import * as v from 'valibot';
import { type CoreRequest, type CoreResponse, HTML_TYPE } from '../../core/http/http.ts';
import type { GatewayPages } from '../../core/ports/ports.ts';
import { CheckoutStatusSchema } from '../../core/schemas/checkout.ts';
import { escapeHtmlText as escape } from '../../core/formats/html-text.ts';

/** Where the page is served; the simulator's Pay sends the buyer here with `?session_id=`. */
export const THANKS_PATH = '/checkout/thanks';

/** No script, no form, nothing from elsewhere: only its own inline style, as the simulator's page. */
const THANKS_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ErrorBodySchema = v.object({ code: v.string(), message: v.string(), resolution: v.string() });

const bodyText = (answer: CoreResponse): string =>
  answer.body === null ? '' : typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);

/** One key, in a line of its own that wraps anywhere (a key is one long word). */
const keyLine = (id: string, label: string, key: string) => `<p>${label}</p><p><code id="${id}">${escape(key)}</code></p>`;

/** What the status answer says, as the page's main part. */
function statusPart(answer: CoreResponse): string {
  const json: unknown = JSON.parse(bodyText(answer));
  const refused = v.safeParse(ErrorBodySchema, json);
  if (answer.status >= 400 && refused.success) {
    return `<h1>No license keys to show</h1><p id="refusal">${escape(refused.output.message)}</p><p>${escape(refused.output.resolution)}</p>`;
  }
  const status = v.parse(CheckoutStatusSchema, json);
  if (status.status !== 'paid') {
    return `<h1>Thank you</h1><p id="waiting">The payment is not confirmed yet (${
      escape(status.status)
    }). Reload this page in a moment to see your license keys.</p>`;
  }
  const keys = [
    status.standardLicenseKey ? keyLine('standard-key', 'Your standard license key:', status.standardLicenseKey) : '',
    status.plusLicenseKey ? keyLine('plus-key', 'Your Plus license key:', status.plusLicenseKey) : '',
  ].join('');
  return keys === ''
    ? '<h1>Thank you</h1><p id="revoked">This order was paid, then refunded or disputed: it holds no license keys.</p>'
    : `<h1>Thank you for your purchase</h1>${keys}<p>Type the key into the app (Help, Enter license key). Keep this page or the keys: they are mailed too when mail is set up.</p>`;
}

/**
 * Renders the page of the request's `session_id`.
 *
 * @param request The page's request (its `session_id` is the status's).
 * @param pages The public answers the core lends a gateway's pages.
 */
export async function thanksPage(request: CoreRequest, pages: GatewayPages): Promise<CoreResponse> {
  const answer = await pages.checkoutStatus(request);
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Thank you</title>
<style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
.banner{background:#fde68a;border:2px solid #b45309;padding:.75rem}code{overflow-wrap:anywhere;font-size:.95rem}</style></head>
<body>
<main>
${statusPart(answer)}
</main>
<p class="banner">PAYMENT SIMULATOR: no money was taken. This page, served by the API server, stands in for your
site's thanks page because no site of yours is configured: set <code>checkoutReturn</code> in the config file
(docs/configuration.md, "Checkout return addresses") to send buyers to your own pages.</p>
</body>
</html>
`;
  return {
    status: answer.status,
    headers: {
      'content-type': HTML_TYPE,
      'cache-control': 'no-store',
      'content-security-policy': THANKS_CSP,
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    },
    body,
  };
}
