/**
 * Opens the offer GET pricing serves: the config file's, or with `stripe.livePrices` the amounts of
 * Stripe's Prices, read once before the server listens and then in the background.
 *
 * @module
 */
import { createLiveOffer, type LiveOffer } from '../adapters/stripe/index.ts';
import type { Clock, Logger, OfferSource } from '../core/ports/ports.ts';
import type { Pricing } from '../core/schemas/responses.ts';
import type { PaymentConfig } from './payment-config.ts';

/** What the offer is opened from. */
export interface OfferSetup {
  payment: PaymentConfig;
  /** The config file's offer. */
  offer: Pricing;
  clock: Clock;
  logger: Logger;
}

/**
 * The live offer with `stripe.livePrices` (Stripe's amounts, read once before it is returned), or null
 * when the offer is the config file's. When Stripe does not answer, the config file's offer is served
 * until it does. The standalone server and the Worker both open it here.
 *
 * @param setup The payment settings, the configured offer, the clock and the logger.
 */
export async function openLiveOffer(setup: OfferSetup): Promise<LiveOffer | null> {
  const { payment, offer, clock, logger } = setup;
  if (payment.gateway !== 'stripe' || payment.livePrices === null) return null;
  const live = createLiveOffer({ ...payment, offer, clock, logger, refreshMs: payment.livePrices.refreshMs });
  await live.refresh();
  return live;
}

/**
 * Gives the offer source: the live offer, or the config file's.
 *
 * @param setup The payment settings, the configured offer, the clock and the logger.
 * @returns The source to give the app.
 */
export async function openOffer(setup: OfferSetup): Promise<OfferSource> {
  return (await openLiveOffer(setup)) ?? { current: () => setup.offer };
}
