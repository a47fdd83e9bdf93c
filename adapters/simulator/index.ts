/**
 * A local payment simulator: a stand-in hosted checkout served by this server itself, so the whole
 * purchase flow runs on one machine with no provider account. It never takes money: it is for
 * development and demos, and says so on every page.
 *
 * @module
 */
import { toBase64Url } from '../../core/licensing/license.ts';
import { applyPaymentEvent, cleanPurchase } from '../../core/licensing/fulfilment.ts';
import { type CoreRequest, type CoreResponse, HTML_TYPE } from '../../core/http/http.ts';
import type {
  CheckoutSession,
  CheckoutState,
  Clock,
  GatewayPages,
  GatewayRoute,
  Logger,
  PaymentFlag,
  PaymentGateway,
  Purchase,
  Storage,
} from '../../core/ports/ports.ts';
import type { Pricing } from '../../core/schemas/pricing.ts';
import { isOneAddress, ONE_ADDRESS_RULE } from '../../core/schemas/email-address.ts';
import { offerAmount, priceOf, renderSimulatorPage, SIMULATED_BUYER } from './page.ts';
import { THANKS_PATH, thanksPage } from './thanks-page.ts';

export { SIMULATED_BUYER } from './page.ts';

/** Where the buyer's browser goes back to, as with Stripe Checkout's success_url and cancel_url. */
export interface ReturnAddresses {
  /** After paying; `{CHECKOUT_SESSION_ID}` is replaced by the session id. */
  successUrl: string;
  /** After cancelling. */
  cancelUrl: string;
}

export interface SimulatorOptions {
  storage: Storage;
  /** The public address of this server, where the pages are served. */
  publicBaseUrl: string;
  clock?: Clock;
  /** Where Pay and Cancel send the buyer; without them the buyer stays on the simulator's page. */
  returnTo?: ReturnAddresses | null;
  /**
   * No site of the vendor's own is configured: Pay sends the buyer to this server's thanks page
   * (THANKS_PATH, showing the keys), Cancel back to the simulator's page; `returnTo` is not used.
   */
  thanksPage?: boolean;
  /** The offer, so that the page shows what is bought and its price. */
  offer?: Pricing;
  /** Where refunds and disputes played on the page are logged; nowhere by default. */
  logger?: Logger;
}

/** The path of a session's page. */
export const SIMULATOR_PATH = '/checkout/simulator';

/** Session ids are "cs_sim_" and 192 random bits, base64url. */
const SESSION_ID = /^cs_sim_[A-Za-z0-9_-]{32}$/;

/** What each button on the page reports. */
const ACTIONS: Record<string, CheckoutState> = { pay: 'paid', delay: 'processing', fail: 'failed' };
/** The buttons of a paid session: what the provider would say of its payment. */
const PAYMENT_ACTIONS: Record<string, PaymentFlag> = { refund: 'refunded', dispute: 'disputed', 'dispute-won': 'dispute_won' };

/** The simulated payment of a session: refunds and disputes name it, as Stripe's name a PaymentIntent. */
export const simulatedPaymentRef = (sessionId: string) => `pi_sim_${sessionId.slice('cs_sim_'.length)}`;

const SILENT: Logger = { info() {}, warn() {}, error() {} };

/** The fields of the Pay form (application/x-www-form-urlencoded), the simulator's buyer for what is left out. */
function formOf(request: CoreRequest): (name: keyof typeof SIMULATED_BUYER) => string {
  const body = request.body;
  const form = new URLSearchParams(body === undefined ? '' : typeof body === 'string' ? body : new TextDecoder().decode(body));
  return (name) => form.get(name) ?? SIMULATED_BUYER[name];
}

/** The buyer typed into the Pay form. */
function buyerOf(field: ReturnType<typeof formOf>, sessionId: string, paid: { amount: string | null; currency: string | null }): Purchase {
  return cleanPurchase({ email: field('email'), name: field('name'), country: field('country'), paymentRef: simulatedPaymentRef(sessionId), ...paid });
}

/**
 * Why the Pay form's email is refused, or null: it must be one address, as every buyer email that mail
 * takes; left empty, the order has no address (as a provider that gave none), which is mailed nothing.
 */
function emailRefusal(field: ReturnType<typeof formOf>): string | null {
  const email = field('email').trim();
  return email === '' || isOneAddress(email) ? null : `The email ${JSON.stringify(email.slice(0, 100))} is refused: it ${ONE_ADDRESS_RULE}. Nothing was paid.`;
}

/** Where Pay and Cancel send the buyer: absolute addresses of a site, or a path of this server; no cancel address: stay. */
type Returns = { successUrl: string; cancelUrl: string | null };

/** The page's CSP: its forms post to itself, whose answers redirect to the return addresses' origins. */
function securityPolicy(returnTo: Returns | null): string {
  const absolute = returnTo ? [returnTo.successUrl, returnTo.cancelUrl].filter((url): url is string => url !== null && !url.startsWith('/')) : [];
  const origins = [...new Set(absolute.map((url) => new URL(url).origin))];
  return ["default-src 'none'; style-src 'unsafe-inline'; form-action 'self'", ...origins].join(' ');
}

function page(policy: string) {
  return (status: number, body: string): CoreResponse => ({
    status,
    headers: {
      'content-type': HTML_TYPE,
      'cache-control': 'no-store',
      'content-security-policy': policy,
      'x-frame-options': 'DENY',
    },
    body,
  });
}

/** A return address for a session: the placeholder becomes its id (base64url: safe in any URL part). */
function fill(url: string, sessionId: string): string {
  return url.replaceAll('{CHECKOUT_SESSION_ID}', sessionId);
}

function seeOther(location: string): CoreResponse {
  return { status: 303, headers: { location, 'cache-control': 'no-store' }, body: null };
}

/**
 * Creates the simulator gateway.
 *
 * @param options Where sessions are stored and where the pages live.
 */
export function createSimulatorGateway(options: SimulatorOptions): PaymentGateway {
  const { storage } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  // The thanks page is this server's own (a path: the buyer stays on the host they use); Cancel stays here.
  const returnTo: Returns | null = options.thanksPage
    ? { successUrl: `${THANKS_PATH}?session_id={CHECKOUT_SESSION_ID}`, cancelUrl: null }
    : (options.returnTo ?? null);
  const html = page(securityPolicy(returnTo));
  const logger = options.logger ?? SILENT;
  const view = async (session: CheckoutSession, cancelled: boolean) => ({
    open: isOpen(session),
    order: session.state === 'paid' ? await storage.orders.get(session.id) : null,
    cancelled,
    product: options.offer?.productDisplayName ?? null,
    price: options.offer ? priceOf(options.offer, session.sku) : null,
    successUrl: returnTo && fill(returnTo.successUrl, session.id),
  });

  const load = async (id: string | undefined): Promise<CheckoutSession | null> =>
    id !== undefined && SESSION_ID.test(id) ? storage.checkouts.getCheckout(id) : null;

  const isOpen = (session: CheckoutSession) => session.state === 'processing' || (session.state === 'pending' && clock.now() < session.expiresAt);

  const routes: GatewayRoute[] = [
    ...(options.thanksPage
      ? [{
        method: 'GET' as const,
        path: THANKS_PATH,
        handle: (request: CoreRequest, _params: Record<string, string>, pages: GatewayPages) => thanksPage(request, pages),
      }]
      : []),
    {
      method: 'GET',
      path: `${SIMULATOR_PATH}/:id`,
      async handle(request, params) {
        const session = await load(params['id']);
        if (!session) return html(404, renderSimulatorPage(null));
        const cancelled = new URLSearchParams(request.query ?? '').get('cancelled') === '1';
        return html(200, renderSimulatorPage(session, await view(session, cancelled)));
      },
    },
    {
      method: 'POST',
      path: `${SIMULATOR_PATH}/:id/:action`,
      async handle(request, params) {
        const session = await load(params['id']);
        const action = params['action'] ?? '';
        if (!session) return html(404, renderSimulatorPage(null));
        const own = `${SIMULATOR_PATH}/${session.id}`;
        if (action === 'cancel') return seeOther(returnTo?.cancelUrl ?? `${own}?cancelled=1`);
        const flag = PAYMENT_ACTIONS[action];
        if (flag) {
          // What Stripe's charge.refunded and charge.dispute.* events do, through the same function.
          if (session.state === 'paid') {
            const source = `simulator ${action}`;
            // The simulator stands outside the app, so its change is the storage's own, not counted by the
            // app (core/ports/change.ts): nothing an app keeps read depends on an order's flag.
            await applyPaymentEvent({ storage, changes: storage, clock, logger }, {
              ref: simulatedPaymentRef(session.id),
              flag,
              source,
              requestId: request.requestId ?? '',
            });
          }
          return seeOther(own);
        }
        const state = ACTIONS[action];
        if (!state) return html(404, renderSimulatorPage(null));
        const allowed = state === 'failed' ? session.state === 'processing' : isOpen(session);
        const field = formOf(request);
        // The buyer's email goes to the mail library: one address, or the payment is refused and nothing changes.
        const refused = allowed && state === 'paid' ? emailRefusal(field) : null;
        if (refused !== null) return html(400, renderSimulatorPage(session, { ...(await view(session, false)), refused }));
        if (allowed) await storage.checkouts.advanceCheckout(session.id, state);
        // Paid: what the provider says of the buyer is kept with the order, as Stripe's customer_details.
        if (allowed && state === 'paid') {
          // The price of the offer is what the simulated buyer "pays".
          const paid = { amount: options.offer ? (offerAmount(options.offer, session.sku) ?? null) : null, currency: options.offer?.currency ?? null };
          await storage.orders.recordPurchase(session.id, buyerOf(field, session.id, paid), clock.now());
        }
        // Paid: back to the site, as Stripe does; the other buttons are the developer's and stay here.
        const paid = allowed && state === 'paid';
        return seeOther(paid && returnTo ? fill(returnTo.successUrl, session.id) : own);
      },
    },
  ];

  return {
    name: 'simulator',
    simulated: true,
    routes,
    async createCheckout() {
      const sessionId = `cs_sim_${toBase64Url(crypto.getRandomValues(new Uint8Array(24)))}`;
      return { sessionId, url: `${base}${SIMULATOR_PATH}/${sessionId}` };
    },
    async checkStatus(session) {
      // The simulator's buttons write the state and the buyer into storage themselves; nothing else to ask.
      return { status: session.state };
    },
    async listPaid(since, limit) {
      // The simulator's paid sessions are storage's: reconciling issues the keys no status read asked for.
      const orders = await storage.orders.find({ limit: limit + 1 });
      const paid = orders.filter((o) => o.session.createdAt >= since);
      return {
        sessions: paid.slice(0, limit).map((o) => ({ id: o.session.id, status: 'paid' as const, purchase: o.purchase })),
        complete: paid.length <= limit,
      };
    },
  };
}
