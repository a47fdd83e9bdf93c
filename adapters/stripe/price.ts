/**
 * Stripe's Price object as this server reads it, and how a Price becomes the offer's price strings.
 *
 * @module
 */
import * as v from 'valibot';

/** The fields of a Stripe Price this server reads. */
export const PriceSchema = v.looseObject({
  id: v.string(),
  object: v.literal('price'),
  active: v.boolean(),
  currency: v.string(),
  type: v.picklist(['one_time', 'recurring']),
  unit_amount: v.nullable(v.number()),
});

/** The offer fields each SKU's Price sets when live prices are on. The other offer fields never change. */
export { SKU_OFFER_FIELDS } from '../../core/schemas/pricing.ts';

/** The largest amount a Pricing price string can hold ("9999999.99"), in cents. */
const MAX_CENTS = 999_999_999;

/**
 * "49.00" as cents (4900), the form Stripe's unit_amount takes.
 *
 * @param price A Pricing price string.
 */
export function cents(price: string): number {
  return Math.round(Number(price) * 100);
}

/**
 * Cents as a Pricing price string: 4900 → "49.00".
 *
 * @param amount Cents, 0 to 999,999,999.
 */
export function decimalPrice(amount: number): string {
  return `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;
}

/**
 * Cents as the website shows a USD price: a dollar sign, thousands grouped with commas, and the cents
 * only when there are some: 4900 → "$49", 2450 → "$24.50", 129900 → "$1,299".
 *
 * @param amount Cents, 0 to 999,999,999.
 */
export function displayPrice(amount: number): string {
  const dollars = String(Math.floor(amount / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  const rest = amount % 100;
  return rest === 0 ? `$${dollars}` : `$${dollars}.${String(rest).padStart(2, '0')}`;
}

/**
 * The amount a Price charges, in USD cents, or why it cannot be shown in the offer.
 *
 * @param answer Stripe's answer to GET /v1/prices/{id}.
 * @returns The cents, or a problem for the log.
 */
export function usdAmount(answer: unknown): { cents: number } | { problem: string } {
  const parsed = v.safeParse(PriceSchema, answer);
  if (!parsed.success) return { problem: 'the answer is not a price' };
  const { currency, unit_amount: amount } = parsed.output;
  if (currency !== 'usd') return { problem: `the price is in ${currency.toUpperCase()}; the offer is in USD only` };
  if (amount === null) return { problem: 'the price has no fixed unit_amount (tiered or customer-chosen)' };
  if (!Number.isInteger(amount) || amount < 0 || amount > MAX_CENTS) return { problem: `unit_amount ${amount} is out of range` };
  return { cents: amount };
}
