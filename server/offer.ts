/**
 * Opens the offer GET pricing serves: the config file's, or with `stripe.livePrices` the amounts of
 * Stripe's Prices, read once before the server listens and then in the background.
 *
 * @module
 */
import { createLiveOffer } from '../adapters/stripe/index.ts';
import type { Clock, Logger, OfferSource } from '../core/ports.ts';
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
 * Gives the offer source. The first read of the Prices is awaited, so the first answer already carries
 * Stripe's amounts; when Stripe does not answer, the config file's offer is served until it does.
 *
 * @param setup The payment settings, the configured offer, the clock and the logger.
 * @returns The source to give the app.
 */
export async function openOffer(setup: OfferSetup): Promise<OfferSource> {
  const { payment, offer, clock, logger } = setup;
  if (payment.gateway !== 'stripe' || payment.livePrices === null) return { current: () => offer };
  const live = createLiveOffer({ ...payment, offer, clock, logger, refreshMs: payment.livePrices.refreshMs });
  await live.refresh();
  return live;
}
