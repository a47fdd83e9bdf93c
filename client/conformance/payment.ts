/**
 * Payment hooks: what pays a checkout session so that the kit can read a paid status.
 */
import type { PayCheckout } from './types.ts';

/**
 * A hook that POSTs to a URL made from `template`, replacing `{sessionId}` (and `{url}`, the checkout's
 * address); a relative template is sent to the target. Any 2xx or 3xx answer counts as paid.
 *
 * @param template e.g. "/checkout/simulator/{sessionId}/pay"
 */
export function payByPost(template: string): PayCheckout {
  return async (checkout, send) => {
    const target = template.replaceAll('{sessionId}', encodeURIComponent(checkout.sessionId)).replaceAll('{url}', checkout.url);
    const url = new URL(target, 'http://conformance.test');
    const response = await send(new Request(url, { method: 'POST', redirect: 'manual' }));
    if (response.status >= 400) throw new Error(`the payment hook's POST ${target} answered ${response.status}`);
  };
}

/** This project's payment simulator: its Pay button POSTs to <checkout url>/pay. */
export const simulatorPayment: PayCheckout = (checkout, send) => payByPost(`${new URL(checkout.url).pathname}/pay`)(checkout, send);
