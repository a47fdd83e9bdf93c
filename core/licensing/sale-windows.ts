/**
 * The update window each SKU sells (issue 56; the config file's `skus`): whole days of updates from a key's
 * issue day, or lifetime (null). A sale stores the windows of its keys with them (KeyWindows), so a later
 * change of these changes only later sales. The Plus bundle sells one per product.
 *
 * @module
 */
import type { CheckoutSku, KeyWindows } from '../ports/port-types.ts';

/** Whole days of updates from a key's issue day, or null: lifetime. */
export type WindowDays = number | null;

/** The window each SKU's keys are sold with, by the product of the key. */
export interface SaleWindows {
  standard: { standard: WindowDays };
  plus_addon: { plus: WindowDays };
  plus_bundle: { standard: WindowDays; plus: WindowDays };
}

/** Every SKU sells lifetime updates: what a server without `skus` in its config sells. */
export const LIFETIME_SALES: Readonly<SaleWindows> = Object.freeze({
  standard: { standard: null },
  plus_addon: { plus: null },
  plus_bundle: { standard: null, plus: null },
});

/**
 * The windows of the keys a sale of `sku` issues (null for a product it issues no key of).
 *
 * @param sales The windows in force when the keys are issued.
 * @param sku What was bought.
 */
export function windowsOfSale(sales: SaleWindows, sku: CheckoutSku): KeyWindows {
  if (sku === 'standard') return { standard: sales.standard.standard, plus: null };
  if (sku === 'plus_addon') return { standard: null, plus: sales.plus_addon.plus };
  return { standard: sales.plus_bundle.standard, plus: sales.plus_bundle.plus };
}

/**
 * The window of the Plus key an operator's upgrade adds to a standard order: what the Plus add-on sells.
 *
 * @param sales The windows in force when the key is issued.
 */
export function upgradeWindow(sales: SaleWindows): WindowDays {
  return sales.plus_addon.plus;
}

/** The longest window a key may be sold with, in days (100 years): what storage keeps. */
export const MAX_WINDOW_DAYS = 36_500;

/**
 * What is wrong with the windows, naming the first refused one (`plus_bundle.plus`), or null when each is
 * null (lifetime) or a whole number of days from 1 to MAX_WINDOW_DAYS.
 */
export function saleWindowsProblem(sales: SaleWindows): string | null {
  for (const [sku, products] of Object.entries(sales)) {
    for (const [product, days] of Object.entries(products as Record<string, WindowDays>)) {
      if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= MAX_WINDOW_DAYS)) {
        return `${sku}.${product} must be a whole number of days from 1 to ${MAX_WINDOW_DAYS}, or null for lifetime, not ${JSON.stringify(days)}`;
      }
    }
  }
  return null;
}
