/**
 * The live offer: each SKU's amount read from its Stripe Price, kept in memory and read again in the
 * background, so GET pricing never waits for Stripe and never fails because of it.
 *
 * When a request finds the offer older than the refresh interval, it starts one background read of the
 * prices and is answered at once from memory. No timer is involved: nothing to stop, nothing that keeps a
 * process or a Worker alive, and tests move time with the injected clock.
 *
 * @module
 */
import type { CheckoutSku, Clock, Logger, OfferSource } from '../../core/ports/ports.ts';
import type { Pricing } from '../../core/schemas/responses.ts';
import { logFields } from './api-error.ts';
import { createStripeClient, type StripeClientOptions } from './client.ts';
import { cents, decimalPrice, displayPrice, SKU_OFFER_FIELDS, usdAmount } from './price.ts';

/** What the live offer reads, and from where. */
export interface LiveOfferOptions extends StripeClientOptions {
  /** The one-time Price id of each SKU. */
  prices: Readonly<Record<CheckoutSku, string>>;
  /** The configured offer: served until Stripe first answers, and for any SKU whose Price is unusable. */
  offer: Pricing;
  logger: Logger;
  clock?: Clock;
  /** How old the offer may get before a request starts a new read, in ms; 5 minutes by default. */
  refreshMs?: number;
}

/** An offer source backed by Stripe's Prices. */
export interface LiveOffer extends OfferSource {
  /**
   * Reads every listed SKU's Price now (joining a read already under way). Never rejects: a failed read
   * keeps the last good offer.
   */
  refresh(): Promise<void>;
  /** The read under way, or null: a Worker hands it to `ctx.waitUntil`, so it may end after the answer. */
  pending(): Promise<void> | null;
}

/** After a failed read, the next one is tried this soon (or at the refresh interval, if shorter). */
const RETRY_AFTER_FAILURE_MS = 60_000;

/**
 * Creates the live offer. It starts with the configured offer; call `refresh()` once at startup to serve
 * Stripe's amounts from the first request.
 *
 * @param options The Stripe key and address, the Price ids, the configured offer and the interval.
 */
export function createLiveOffer(options: LiveOfferOptions): LiveOffer {
  const { logger, prices, offer: configured } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const refreshMs = options.refreshMs ?? 5 * 60_000;
  const client = createStripeClient(options);
  // Only the SKUs whose price the offer shows are read; an omitted field stays omitted.
  const skus = (Object.keys(SKU_OFFER_FIELDS) as CheckoutSku[]).filter((sku) => configured[SKU_OFFER_FIELDS[sku].price] !== undefined);
  let offer = configured;
  let dueAt = 0;
  let reading: Promise<void> | null = null;
  let failing = false;
  const problems = new Map<CheckoutSku, string>();

  const readPrice = (sku: CheckoutSku) => client.call({ method: 'GET', path: `/v1/prices/${encodeURIComponent(prices[sku])}` });

  /** The offer with each SKU's fields from its answer, or from the config when the Price is unusable. */
  const offerFrom = (answers: unknown[]): Pricing => {
    const next: Pricing = { ...configured };
    skus.forEach((sku, i) => {
      const amount = usdAmount(answers[i]);
      if ('problem' in amount) {
        if (problems.get(sku) !== amount.problem) {
          logger.warn(`stripe: stripe.prices.${sku} (${prices[sku]}) cannot set the offer; serving the configured amount`, { problem: amount.problem });
        }
        problems.set(sku, amount.problem);
        return;
      }
      problems.delete(sku);
      const fields = SKU_OFFER_FIELDS[sku];
      const configuredPrice = configured[fields.price];
      const unchanged = configuredPrice !== undefined && amount.cents === cents(configuredPrice);
      next[fields.price] = decimalPrice(amount.cents);
      if (configured[fields.display] !== undefined && !unchanged) next[fields.display] = displayPrice(amount.cents);
    });
    return next;
  };

  const read = async (): Promise<void> => {
    // Due again soon unless the read works, so that even a read that throws is not retried per request.
    dueAt = clock.now() + Math.min(refreshMs, RETRY_AFTER_FAILURE_MS);
    const results = await Promise.allSettled(skus.map(readPrice));
    const failure = results.find((result) => result.status === 'rejected');
    if (failure) {
      if (!failing) logger.warn('stripe: cannot read the live prices; serving the last good offer until Stripe answers', logFields(failure.reason));
      failing = true;
      return;
    }
    dueAt = clock.now() + refreshMs;
    if (failing) logger.info('stripe: the live prices can be read again');
    failing = false;
    const next = offerFrom(results.map((result) => (result.status === 'fulfilled' ? result.value : undefined)));
    const changed = skus.some((sku) => Object.values(SKU_OFFER_FIELDS[sku]).some((field) => next[field] !== offer[field]));
    // The same object while nothing changed: GET pricing then keeps serving the bytes it has.
    if (!changed) return;
    offer = next;
    logger.info('stripe: the live offer changed', Object.fromEntries(skus.map((sku) => [sku, next[SKU_OFFER_FIELDS[sku].price]])));
  };

  const refresh = (): Promise<void> => (reading ??= read()
    .catch((error: unknown) => logger.error('stripe: the live offer could not be refreshed', { error: String(error) }))
    .finally(() => (reading = null)));

  return {
    current() {
      if (reading === null && clock.now() >= dueAt) void refresh();
      return offer;
    },
    refresh,
    pending: () => reading,
  };
}
