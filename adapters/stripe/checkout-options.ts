/**
 * What a vendor can switch on for every Checkout Session from the config file's "stripe" section, and the
 * Checkout Session parameters each switch sends, by Stripe's names (docs/payments.md "Checkout features").
 *
 * @module
 */
import type { FormValue } from './form.ts';

/** The Checkout features a vendor may switch on; all off by default. */
export interface StripeCheckoutOptions {
  /** Stripe Tax computes the tax from the buyer's address: `automatic_tax[enabled]`. */
  automaticTax?: boolean;
  /** A business buyer can give its tax id: `tax_id_collection[enabled]`. */
  taxIdCollection?: boolean;
  /** The buyer can enter a promotion code made in the Dashboard: `allow_promotion_codes`. */
  promotionCodes?: boolean;
  /** Stripe makes a paid invoice for each payment: `invoice_creation[enabled]`. */
  invoiceCreation?: boolean;
  /**
   * An expired session gets a recovery link: `after_expiration[recovery][enabled]` (with promotion codes
   * when those are on). A recovered session that is paid is adopted by its `recovered_from`.
   */
  abandonedCheckoutRecovery?: boolean;
  /** Checkout asks for consent to promotional mail (Stripe: US businesses only): `consent_collection[promotions]=auto`. */
  promotionsConsent?: boolean;
}

/**
 * The Checkout Session parameters of the switched-on features, to add to the session's form.
 *
 * @param options The switches.
 * @returns The parameters; none for the defaults.
 */
export function checkoutFeatureParams(options: StripeCheckoutOptions = {}): Record<string, FormValue> {
  const params: Record<string, FormValue> = {};
  if (options.automaticTax) params['automatic_tax'] = { enabled: true };
  if (options.taxIdCollection) params['tax_id_collection'] = { enabled: true };
  if (options.promotionCodes) params['allow_promotion_codes'] = true;
  if (options.invoiceCreation) params['invoice_creation'] = { enabled: true };
  if (options.abandonedCheckoutRecovery) {
    params['after_expiration'] = { recovery: { enabled: true, ...(options.promotionCodes ? { allow_promotion_codes: true } : {}) } };
  }
  if (options.promotionsConsent) params['consent_collection'] = { promotions: 'auto' };
  return params;
}
