/**
 * The simulator's one HTML page: what is bought and its price, the session, its state, and buttons that
 * play the provider's part.
 *
 * @module
 */
import { revocationCause } from '../../core/ports/order-state.ts';
import type { CheckoutSession, CheckoutSku } from '../../core/ports/ports.ts';
import type { Order } from '../../core/ports/store-ports.ts';
import { type Pricing, SKU_OFFER_FIELDS } from '../../core/schemas/pricing.ts';
import { escapeHtmlText as escape } from '../../core/formats/html-text.ts';

const PRODUCTS: Record<string, string> = {
  standard: 'Standard license',
  plus_addon: 'Plus add-on',
  plus_bundle: 'Plus bundle (standard + Plus)',
};

/** What a session's state means to the developer trying a site or the app against the simulator. */
const STATE_TEXT: Record<string, string> = {
  pending: 'Waiting for payment.',
  processing: 'Delayed payment started: GET /api/v1/checkout/status answers "processing" until you complete or fail it.',
  paid: 'Paid. The site or the app now reads the license key from GET /api/v1/checkout/status.',
  revoked: 'Paid, then refunded or disputed: GET /api/v1/checkout/status hands out no license key.',
  expired: 'This session expired before it was paid. Start a new checkout from the site or the app.',
  failed: 'The delayed payment failed. Start a new checkout from the site or the app.',
};

/** The offer's price of a product as a decimal ("49.00"), or undefined when the offer has none. */
export function offerAmount(offer: Pricing, sku: CheckoutSku): string | undefined {
  return offer[SKU_OFFER_FIELDS[sku].price];
}

/** What the offer says one SKU costs: its display string, else its amount in USD. */
export function priceOf(offer: Pricing, sku: CheckoutSku): string | null {
  const amount = offerAmount(offer, sku);
  return offer[SKU_OFFER_FIELDS[sku].display] ?? (amount === undefined ? null : `${amount} USD`);
}

/** How a session is shown. */
export interface SessionView {
  /** Whether the session can still be paid. */
  open: boolean;
  /** Whether the customer just pressed Cancel (with no cancel address configured). */
  cancelled: boolean;
  /** The product's display name and the SKU's price, when the offer is known. */
  product: string | null;
  price: string | null;
  /** The site's success address for this session, when configured. */
  successUrl: string | null;
  /** The order of a paid session: its buyer and standing. */
  order?: Order | null;
  /** Why the last Pay was refused (its email is not one address), or absent. */
  refused?: string;
}

/** The buyer the Pay form gives when its fields are left as they are. */
export const SIMULATED_BUYER = { email: 'buyer@example.com', name: 'Sam Buyer', country: 'US' } as const;

/** The buyer fields of the Pay form, filled with the simulator's buyer. */
const BUYER_FIELDS = `<label>Email <input name="email" type="email" value="${SIMULATED_BUYER.email}"></label> ` +
  `<label>Name <input name="name" value="${SIMULATED_BUYER.name}"></label> ` +
  `<label>Country <input name="country" value="${SIMULATED_BUYER.country}" size="2" maxlength="2"></label> `;

/** What the provider said of a paid order, and whether its licenses stand. */
function standingOf(order: Order): string {
  const s = order.standing;
  const said = [s.refunded ? 'refunded' : '', s.disputed ? (s.disputeWon ? 'dispute won' : 'disputed') : ''].filter(Boolean).join(', ');
  const cause = revocationCause(s);
  const verdict = cause === null ? 'Licenses valid.' : `Licenses revoked (${cause}).`;
  return `<p id="standing">${said === '' ? '' : `Payment ${escape(said)}. `}${verdict}</p>`;
}

function button(id: string, action: string, label: string, fields = ''): string {
  return `<form method="post" action="/checkout/simulator/${escape(id)}/${action}">${fields}<button>${label}</button></form>`;
}

/**
 * Renders the page.
 *
 * @param session The session, or null when there is none with that id.
 * @param view How to show it.
 */
export function renderSimulatorPage(session: CheckoutSession | null, view?: SessionView): string {
  const open = view?.open ?? false;
  const state = session ? (session.state === 'pending' && !open ? 'expired' : session.state) : null;
  const buttons = !session ? '' : state === 'pending'
    ? button(session.id, 'pay', 'Pay (simulated)', BUYER_FIELDS) +
      button(session.id, 'delay', 'Start a delayed payment (simulated)') +
      button(session.id, 'cancel', 'Cancel')
    : state === 'processing'
    ? button(session.id, 'pay', 'Complete the delayed payment', BUYER_FIELDS) + button(session.id, 'fail', 'Fail the delayed payment')
    : state === 'paid'
    ? (view?.order ? standingOf(view.order) : '') +
      button(session.id, 'refund', 'Refund (simulated)') +
      button(session.id, 'dispute', 'Dispute (simulated)') +
      button(session.id, 'dispute-won', 'Dispute won (simulated)')
    : '';
  const back = session && view?.successUrl && (state === 'paid' || state === 'processing')
    ? `<p><a id="return" href="${escape(view.successUrl)}">Return to the site</a></p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Payment simulator</title>
<style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}
.banner{background:#fde68a;border:2px solid #b45309;padding:.75rem;font-weight:600}
form{display:inline-block;margin:.25rem .5rem .25rem 0}button{font:inherit;padding:.5rem 1rem}label{display:block;margin:.25rem 0}</style></head>
<body>
<p class="banner">PAYMENT SIMULATOR: no money is taken. This page stands in for a hosted checkout during development.</p>
${
    session
      ? `<h1>${view?.product ? `${escape(view.product)}: ` : ''}${escape(PRODUCTS[session.sku] ?? session.sku)}</h1>
${view?.price ? `<p id="price">Price: <strong>${escape(view.price)}</strong> (simulated: nothing is charged)</p>` : ''}
<p>Session <code>${escape(session.id)}</code></p>
${view?.cancelled ? '<p id="cancelled">Payment cancelled. The session stays open until it expires, so you can still pay.</p>' : ''}
${view?.refused ? `<p id="refused" role="alert">${escape(view.refused)}</p>` : ''}
<p id="state">${escape(STATE_TEXT[state === 'paid' && view?.order && revocationCause(view.order.standing) !== null ? 'revoked' : state!] ?? state!)}</p>
${buttons}${back}`
      : '<h1>No such checkout session</h1><p>Start a new checkout from the site or the app.</p>'
  }
</body>
</html>
`;
}
