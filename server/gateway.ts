/**
 * Opens the payment gateway the configuration asks for. For Stripe, the key and prices are checked
 * once at startup, before the socket is bound: a refused key or a missing price stops the server with
 * a message naming the setting, instead of a 500 on every checkout later.
 *
 * @module
 */
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { createStripeGateway } from '../adapters/stripe/index.ts';
import type { Clock, Logger, PaymentGateway, Storage } from '../core/ports/ports.ts';
import type { SiteContent } from '../core/schemas/content.ts';
import { ConfigError } from './config-error.ts';
import type { PaymentConfig } from './payment-config.ts';

export interface GatewaySetup {
  payment: PaymentConfig;
  offer: SiteContent['offer'];
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /** No site of the vendor's own to return the buyer to (payment-config.ts): the simulator serves its own thanks page. */
  thanksPage?: boolean;
}

/**
 * A checked gateway, made once the server's public address is known: the simulator serves its pages
 * there, and that address follows the port actually bound.
 */
export type GatewayFactory = (publicBaseUrl: string) => PaymentGateway;

/**
 * Checks the gateway's setup (for Stripe, against Stripe) and gives the way to make it.
 *
 * @param setup The payment settings and what the gateway works with.
 * @returns The factory that makes the gateway for the public address.
 * @throws ConfigError when Stripe refuses the key or lacks a configured price.
 */
export async function openGateway(setup: GatewaySetup): Promise<GatewayFactory> {
  const { payment, storage, clock, logger, offer } = setup;
  if (payment.gateway === 'simulator') {
    const thanksPage = setup.thanksPage === true;
    if (thanksPage) logger.info('simulator: no site of yours in "checkoutReturn", so Pay returns the buyer to this server\'s /checkout/thanks page');
    return (publicBaseUrl) => createSimulatorGateway({ storage, publicBaseUrl, clock, returnTo: payment.returnTo, thanksPage, offer, logger });
  }
  const gateway = createStripeGateway({ ...payment, logger, clock });
  // With live prices the file's amounts are only the fallback: a Price that differs is expected.
  const report = await gateway.checkSetup(
    payment.livePrices ? {} : { standard: offer.licensePrice, plus_addon: offer.plusAddonPrice, plus_bundle: offer.plusBundlePrice },
  );
  for (const warning of report.warnings) logger.warn(`stripe: ${warning}`);
  if (report.problems.length > 0) throw new ConfigError(report.problems.join('; '));
  if (payment.webhookSecret === null) {
    logger.warn('stripe: STRIPE_WEBHOOK_SECRET is not set: notifications are refused and sessions settle only when polled');
  }
  return () => gateway;
}
