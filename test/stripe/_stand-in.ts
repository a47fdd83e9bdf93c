/**
 * A local stand-in of the Stripe API for tests (127.0.0.1 only), built from Stripe's documented shapes:
 * Bearer authentication, form-encoded requests with bracketed keys, the Checkout Session and Price
 * objects, `{error: {type, code, message, param}}` error bodies with a `request-id` header, idempotent
 * replays, and webhook events signed as documented (`t=<unix>,v1=<hex HMAC-SHA-256 of "t.body">`).
 * Faults (5xx, 429 with Retry-After, an answer that never comes, a dropped connection) are queued by
 * the test. It uses node:crypto for signatures, independent of the Web Crypto code under test.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  authorizationFault,
  chargeEventJson,
  customerDetails,
  eventJson,
  type Fault,
  formFields,
  newSession,
  priceObject,
  type Session,
  sessionListPage,
  signatureHeader,
  type StandInBuyer,
  type StandInPrice,
  stripeError,
  versionFault,
} from './_stripe-objects.ts';

export type { Fault, StandInBuyer, StandInPrice } from './_stripe-objects.ts';

/** A request as the stand-in received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawBody: string;
  form: Record<string, string>;
}

export interface StripeStandIn {
  /** The base address to give the gateway as STRIPE_API_BASE. */
  url: string;
  requests: RecordedRequest[];
  /** Serves `fault` instead of the next answer (queued in order). */
  failNext(fault: Fault): void;
  /** Resolves once `count` answers are being held back by `stall` faults. */
  whenStalled(count: number): Promise<void>;
  /** Drops the connections of the held-back answers, as a network failure would. */
  dropStalled(): void;
  /** Changes a Price, as an edit in Stripe's Dashboard would. */
  updatePrice(id: string, changes: Partial<Omit<StandInPrice, 'id'>>): void;
  /** The session as Stripe stores it. */
  session(id: string): Session;
  /** The buyer pays by card: complete and paid at once; Checkout collected `buyer`. */
  pay(id: string, buyer?: StandInBuyer): void;
  /** The buyer picks a delayed method (e.g. a bank debit): complete, unpaid, its PaymentIntent processing. */
  payDelayed(id: string): void;
  /** The delayed payment settles: paid, or failed (the PaymentIntent asks for another method). */
  settleDelayed(id: string, succeeded: boolean): void;
  /** The session expires unpaid. */
  expire(id: string): void;
  /** The buyer opens the recovery link of an expired session: a new open session, a copy of it, `recovered_from` it. */
  recover(id: string): string;
  /** An event about a session, as Stripe sends it to a webhook endpoint. */
  event(type: string, sessionId: string): string;
  /**
   * An event about the charge of a paid session: `charge.refunded` (in full unless `amountRefunded`, in
   * cents), `charge.dispute.created` (needs_response), `charge.dispute.closed` (`status`: won or lost);
   * the dispute's id is `disputeId` when given (a second dispute of the same charge), else one per charge.
   */
  chargeEvent(
    type: 'charge.refunded' | 'charge.dispute.created' | 'charge.dispute.closed',
    sessionId: string,
    options?: { amountRefunded?: number; status?: string; disputeId?: string },
  ): string;
  /** The Stripe-Signature header for a body, computed as Stripe documents. */
  sign(body: string, secret: string, timestampSeconds: number, extraSignatures?: string[]): string;
  close(): Promise<void>;
}

/**
 * Starts a stand-in.
 *
 * @param options The accepted secret key, the prices that exist, and the clock for timestamps.
 */
export async function startStripeStandIn(options: {
  secretKey: string;
  prices: StandInPrice[];
  now: () => number;
}): Promise<StripeStandIn> {
  const sessions = new Map<string, Session>();
  const intents = new Map<string, { id: string; object: 'payment_intent'; status: string }>();
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const requests: RecordedRequest[] = [];
  const faults: Fault[] = [];
  const stalled = new Set<ServerResponse>();
  const stallWaiters: { count: number; resolve: () => void }[] = [];
  const stall = (res: ServerResponse) => {
    stalled.add(res);
    for (const waiter of stallWaiters.filter((w) => stalled.size >= w.count)) {
      stallWaiters.splice(stallWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const seconds = () => Math.floor(options.now() / 1000);
  const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
    res.end(JSON.stringify(body));
  };

  const withIntent = (session: Session, expand: boolean): Session =>
    expand && typeof session.payment_intent === 'string' ? { ...session, payment_intent: intents.get(session.payment_intent) ?? null } : { ...session };

  const authorized = (req: IncomingMessage): Fault | null =>
    authorizationFault(req.headers.authorization, options.secretKey) ?? versionFault(req.headers['stripe-version']);

  const createSession = (req: IncomingMessage, rawBody: string, form: Record<string, string>): Fault | { status: number; answer: unknown } => {
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return stripeError(400, { type: 'invalid_request_error', message: 'Invalid request: expected a form-encoded body.' });
    }
    const key = req.headers['idempotency-key'];
    const saved = typeof key === 'string' ? idempotent.get(key) : undefined;
    if (saved && saved.body !== rawBody) {
      return stripeError(400, {
        type: 'idempotency_error',
        message:
          `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
      });
    }
    if (saved) return { status: saved.status, answer: saved.answer };
    const price = options.prices.find((p) => p.id === form['line_items[0][price]']);
    if (form['mode'] !== 'payment') return stripeError(400, { type: 'invalid_request_error', param: 'mode', message: 'Missing required param: mode.' });
    if (!price) {
      return stripeError(400, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'line_items[0][price]',
        message: `No such price: '${form['line_items[0][price]']}'`,
      });
    }
    if (!form['success_url']) return stripeError(400, { type: 'invalid_request_error', param: 'success_url', message: 'Missing required param: success_url.' });
    const session = newSession(form, price, seconds());
    sessions.set(session.id, session);
    if (typeof key === 'string') idempotent.set(key, { body: rawBody, status: 200, answer: session });
    return { status: 200, answer: session };
  };

  const route = (req: IncomingMessage, res: ServerResponse, request: RecordedRequest) => {
    const fault = faults.shift() ?? authorized(req);
    if (fault?.kind === 'stall') return stall(res);
    if (fault?.kind === 'drop') return void req.socket.destroy();
    if (fault) return send(res, fault.status, fault.body ?? { error: { type: 'api_error', message: 'An unknown error occurred' } }, fault.headers);
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    const pricePath = /^\/v1\/prices\/([^/]+)$/.exec(request.path);
    if (req.method === 'POST' && request.path === '/v1/checkout/sessions') {
      const created = createSession(req, request.rawBody, request.form);
      if ('kind' in created) return created.kind === 'status' ? send(res, created.status, created.body) : undefined;
      return send(res, created.status, created.answer);
    }
    if (req.method === 'GET' && request.path === '/v1/checkout/sessions') {
      const expand = request.query.getAll('expand[]').includes('data.payment_intent');
      const page = sessionListPage([...sessions.values()], request.query);
      return send(res, 200, { ...page, data: (page['data'] as Session[]).map((s) => withIntent(s, expand)) });
    }
    if (req.method === 'GET' && sessionPath?.[1]) {
      const session = sessions.get(decodeURIComponent(sessionPath[1]));
      if (!session) {
        return send(res, 404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', param: 'session', message: `No such checkout.session: '${sessionPath[1]}'` },
        });
      }
      return send(res, 200, withIntent(session, request.query.getAll('expand[]').includes('payment_intent')));
    }
    if (req.method === 'GET' && pricePath?.[1]) {
      const price = options.prices.find((p) => p.id === decodeURIComponent(pricePath[1]!));
      if (!price) {
        return send(res, 404, {
          error: { type: 'invalid_request_error', code: 'resource_missing', param: 'price', message: `No such price: '${pricePath[1]}'` },
        });
      }
      return send(res, 200, priceObject(price));
    }
    send(res, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${request.path}).` } });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const request: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        form: formFields(rawBody),
      };
      requests.push(request);
      route(req, res, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const session = (sessionId: string): Session => {
    const found = sessions.get(sessionId);
    if (!found) throw new Error(`stand-in: no session ${sessionId}`);
    return found;
  };
  const intentFor = (found: Session, status: string) => {
    const intentId = typeof found.payment_intent === 'string' ? found.payment_intent : id('pi');
    intents.set(intentId, { id: intentId, object: 'payment_intent', status });
    found.payment_intent = intentId;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (fault) => void faults.push(fault),
    whenStalled: (count) => stalled.size >= count ? Promise.resolve() : new Promise<void>((resolve) => void stallWaiters.push({ count, resolve })),
    dropStalled() {
      for (const res of stalled) res.socket?.destroy();
      stalled.clear();
    },
    updatePrice(priceId, changes) {
      const price = options.prices.find((p) => p.id === priceId);
      if (!price) throw new Error(`stand-in: no price ${priceId}`);
      Object.assign(price, changes);
    },
    session,
    pay(sessionId, buyer = { email: 'buyer@example.com', name: 'Sam Buyer', country: 'US' }) {
      const found = session(sessionId);
      Object.assign(found, { status: 'complete', payment_status: 'paid', customer_details: customerDetails(buyer) });
      intentFor(found, 'succeeded');
    },
    payDelayed(sessionId) {
      const found = session(sessionId);
      Object.assign(found, { status: 'complete', payment_status: 'unpaid' });
      intentFor(found, 'processing');
    },
    settleDelayed(sessionId, succeeded) {
      const found = session(sessionId);
      if (succeeded) found['payment_status'] = 'paid';
      intentFor(found, succeeded ? 'succeeded' : 'requires_payment_method');
    },
    expire(sessionId) {
      const found = session(sessionId);
      Object.assign(found, { status: 'expired', url: null });
    },
    recover(sessionId) {
      const expired = session(sessionId);
      const copy = id('cs_test');
      const now = seconds();
      sessions.set(copy, {
        ...expired,
        id: copy,
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        customer_details: null,
        recovered_from: sessionId,
        created: now,
        expires_at: now + 24 * 3600,
        url: `https://checkout.stripe.com/c/pay/${copy}`,
      });
      return copy;
    },
    event: (type, sessionId) => eventJson(type, session(sessionId), seconds()),
    chargeEvent: (type, sessionId, eventOptions = {}) => chargeEventJson(type, session(sessionId), eventOptions, seconds()),
    sign: signatureHeader,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of stalled) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
