/**
 * Fixtures of the Stripe tests: the stand-in with three prices and a gateway pointed at it, on a manual
 * clock, with the waits between retries recorded instead of slept.
 */
import { createStripeGateway, type StripeGateway } from '../../adapters/stripe/index.ts';
import { type ManualClock, manualClock, memoryLogger } from '../_setup.ts';
import { startStripeStandIn, type StripeStandIn } from './_stand-in.ts';
import { loadScaled } from '../_load.ts';

/** The gateway's timeout in these tests: 500 ms on an idle machine, more under load. */
export const STRIPE_TIMEOUT_MS = loadScaled(500);

export const SECRET_KEY = 'sk_test_51StandInKey0000000000';
export const WEBHOOK_SECRET = 'whsec_standInEndpointSecret000000';
export const PRICES = { standard: 'price_standard', plus_addon: 'price_plus_addon', plus_bundle: 'price_plus_bundle' } as const;
export const SUCCESS_URL = 'https://www.example.com/thanks?session_id={CHECKOUT_SESSION_ID}';
export const CANCEL_URL = 'https://www.example.com/buy';

export interface StripeFixture {
  stripe: StripeStandIn;
  gateway: StripeGateway;
  clock: ManualClock;
  logger: ReturnType<typeof memoryLogger>;
  /** The waits the client asked for between retries, in ms. */
  waits: number[];
  close(): Promise<void>;
}

/**
 * A stand-in and a gateway using it.
 *
 * @param overrides Gateway options to change (e.g. a wrong secretKey, a short timeout).
 */
export async function stripeFixture(overrides: Partial<Parameters<typeof createStripeGateway>[0]> = {}): Promise<StripeFixture> {
  const clock = manualClock();
  const logger = memoryLogger();
  const waits: number[] = [];
  const stripe = await startStripeStandIn({
    secretKey: SECRET_KEY,
    now: clock.now,
    prices: [
      { id: PRICES.standard, unit_amount: 4900 },
      { id: PRICES.plus_addon, unit_amount: 1900 },
      { id: PRICES.plus_bundle, unit_amount: 6400 },
    ],
  });
  const gateway = createStripeGateway({
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: stripe.url,
    prices: PRICES,
    successUrl: SUCCESS_URL,
    cancelUrl: CANCEL_URL,
    logger,
    clock,
    timeoutMs: STRIPE_TIMEOUT_MS,
    sleep: async (ms) => {
      waits.push(ms);
      clock.advance(ms);
    },
    ...overrides,
  });
  return { stripe, gateway, clock, logger, waits, close: () => stripe.close() };
}
