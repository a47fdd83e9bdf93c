/**
 * The startup check of a Stripe setup: one read of each SKU's Price proves that the secret key works
 * and that the prices exist, are active, one-time, and match the offer. A refusal is a configuration
 * error; an unreachable provider is only a warning (the server starts and checkouts retry later).
 *
 * @module
 */
import * as v from 'valibot';
import type { CheckoutSku } from '../../core/ports/ports.ts';
import { type StripeClient, StripeError } from './client.ts';
import { logFields } from './api-error.ts';
import { cents, PriceSchema } from './price.ts';

/** What the check found: fatal problems stop the server; warnings are logged. */
export interface SetupReport {
  problems: string[];
  warnings: string[];
}

/**
 * Checks the key and the prices.
 *
 * @param client The Stripe client.
 * @param prices The Price id of each SKU.
 * @param offer The amount each SKU is offered at ("49.00" in USD), when the offer lists one.
 * @returns The problems and warnings, each naming the setting to fix.
 */
export async function checkStripeSetup(
  client: StripeClient,
  prices: Readonly<Record<CheckoutSku, string>>,
  offer: { readonly [K in CheckoutSku]?: string | undefined },
): Promise<SetupReport> {
  const report: SetupReport = { problems: [], warnings: [] };
  for (const [sku, id] of Object.entries(prices) as [CheckoutSku, string][]) {
    const setting = `stripe.prices.${sku}`;
    let answer: unknown;
    try {
      answer = await client.call({ method: 'GET', path: `/v1/prices/${encodeURIComponent(id)}` });
    } catch (error) {
      if (!(error instanceof StripeError) || error.failure === 'bad_answer') {
        report.warnings.push(`could not read the Stripe price ${id}: ${String(logFields(error)['detail'])}`);
      } else if (error.failure === 'unauthorized') {
        report.problems.push(`STRIPE_SECRET_KEY is refused by Stripe (401: ${error.message})`);
        return report;
      } else if (error.failure === 'refused' && error.status === 404) {
        report.problems.push(`${setting}: Stripe has no price ${JSON.stringify(id)} for this key (${error.message})`);
      } else if (error.failure === 'refused') {
        report.warnings.push(`${setting}: Stripe refused to show price ${id} (${error.status}: ${error.message})`);
      } else {
        report.warnings.push(`could not reach Stripe to check the key and prices (${error.message}); checkouts fail until it answers`);
        return report;
      }
      continue;
    }
    const parsed = v.safeParse(PriceSchema, answer);
    if (!parsed.success) {
      report.warnings.push(`${setting}: Stripe's answer for price ${id} is not a price`);
      continue;
    }
    const price = parsed.output;
    if (!price.active) report.problems.push(`${setting}: price ${id} is archived (inactive); checkouts would be refused`);
    if (price.type !== 'one_time') report.problems.push(`${setting}: price ${id} is recurring; a one-time payment needs a one_time price`);
    const offered = offer[sku];
    if (price.currency !== 'usd') report.warnings.push(`${setting}: price ${id} is in ${price.currency.toUpperCase()}, the offer in USD`);
    else if (offered !== undefined && price.unit_amount !== null && price.unit_amount !== cents(offered)) {
      report.warnings.push(
        `${setting}: price ${id} charges ${(price.unit_amount / 100).toFixed(2)} but the offer shows ${offered}`,
      );
    }
  }
  return report;
}
