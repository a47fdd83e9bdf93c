/**
 * A local payment simulator: a stand-in hosted checkout served by this server itself, so the whole
 * purchase flow runs on one machine with no provider account. It never takes money: it is for
 * development and demos, and says so on every page.
 *
 * @module
 */
import { toBase64Url } from '../../core/license.ts';
import { HTML_TYPE, type CoreResponse } from '../../core/http.ts';
import type { CheckoutSession, CheckoutState, Clock, GatewayRoute, PaymentGateway, Storage } from '../../core/ports.ts';
import { renderSimulatorPage } from './page.ts';

export interface SimulatorOptions {
  storage: Storage;
  /** The public address of this server, where the pages are served. */
  publicBaseUrl: string;
  clock?: Clock;
}

/** The path of a session's page. */
export const SIMULATOR_PATH = '/checkout/simulator';

/** Session ids are "cs_sim_" and 192 random bits, base64url. */
const SESSION_ID = /^cs_sim_[A-Za-z0-9_-]{32}$/;

/** What each button on the page reports. */
const ACTIONS: Record<string, CheckoutState> = { pay: 'paid', delay: 'processing', fail: 'failed' };

function html(status: number, body: string): CoreResponse {
  return {
    status,
    headers: {
      'content-type': HTML_TYPE,
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
      'x-frame-options': 'DENY',
    },
    body,
  };
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

  const load = async (id: string | undefined): Promise<CheckoutSession | null> =>
    id !== undefined && SESSION_ID.test(id) ? storage.getCheckout(id) : null;

  const isOpen = (session: CheckoutSession) =>
    session.state === 'processing' || (session.state === 'pending' && clock.now() < session.expiresAt);

  const routes: GatewayRoute[] = [
    {
      method: 'GET',
      path: `${SIMULATOR_PATH}/:id`,
      async handle(request, params) {
        const session = await load(params['id']);
        if (!session) return html(404, renderSimulatorPage(null, false));
        const cancelled = new URLSearchParams(request.query ?? '').get('cancelled') === '1';
        return html(200, renderSimulatorPage(session, isOpen(session), cancelled));
      },
    },
    {
      method: 'POST',
      path: `${SIMULATOR_PATH}/:id/:action`,
      async handle(_request, params) {
        const session = await load(params['id']);
        const action = params['action'] ?? '';
        if (!session) return html(404, renderSimulatorPage(null, false));
        const page = `${SIMULATOR_PATH}/${session.id}`;
        if (action === 'cancel') return seeOther(`${page}?cancelled=1`);
        const state = ACTIONS[action];
        if (!state) return html(404, renderSimulatorPage(null, false));
        const allowed = state === 'failed' ? session.state === 'processing' : isOpen(session);
        if (allowed) await storage.advanceCheckout(session.id, state);
        return seeOther(page);
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
      // The simulator's buttons write the state into storage themselves; there is nothing else to ask.
      return session.state;
    },
  };
}
