/**
 * The live offer (GET /api/v1/pricing).
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';
import { Link } from './link.ts';
import type { CheckoutSku } from './catalogue.ts';

/** A price as a decimal string with exactly two decimals, e.g. "49.00". */
const Price = v.pipe(
  v.string(),
  v.regex(/^(0|[1-9][0-9]{0,6})\.[0-9]{2}$/, 'must be a decimal string with two decimals, e.g. "49.00"'),
  v.description('Amount in the offer currency: a decimal string with exactly two decimals, e.g. "49.00".'),
);
/** How the website shows a price, e.g. "$49". */
const PriceDisplay = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(40),
  v.description('The price as the website shows it, e.g. "$49".'),
);
/** The live offer (GET /api/v1/pricing): prices as "49.00", their display form as "$49", payment links. */
export interface Pricing {
  /** Constant product code. */
  product: string;
  productDisplayName: string;
  currency: 'USD';
  licensePrice: string;
  licensePriceDisplay: string;
  gatewayPaymentLink: string;
  /** How many files the trial converts. */
  trialFileLimit: number;
  commercialLicensePrice?: string | undefined;
  commercialLicensePriceDisplay?: string | undefined;
  gatewayCommercialPaymentLink?: string | undefined;
  plusAddonPrice?: string | undefined;
  plusAddonPriceDisplay?: string | undefined;
  gatewayPlusAddonPaymentLink?: string | undefined;
  plusBundlePrice?: string | undefined;
  plusBundlePriceDisplay?: string | undefined;
  gatewayPlusBundlePaymentLink?: string | undefined;
  plusCommercialPrice?: string | undefined;
  plusCommercialPriceDisplay?: string | undefined;
  gatewayPlusCommercialPaymentLink?: string | undefined;
  plusAddonCommercialPrice?: string | undefined;
  plusAddonCommercialPriceDisplay?: string | undefined;
  gatewayPlusAddonCommercialPaymentLink?: string | undefined;
}

/** The pricing object itself, for schemas built on its entries. */
export const pricingObject = v.strictObject({
  product: v.pipe(
    v.string(),
    v.regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be a lower-case slug'),
    v.description('Constant product code.'),
  ),
  productDisplayName: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  currency: v.literal('USD'),
  licensePrice: Price,
  licensePriceDisplay: PriceDisplay,
  gatewayPaymentLink: Link,
  trialFileLimit: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(0),
    v.description('How many files the trial converts.'),
  ),
  commercialLicensePrice: v.optional(Price),
  commercialLicensePriceDisplay: v.optional(PriceDisplay),
  gatewayCommercialPaymentLink: v.optional(Link),
  plusAddonPrice: v.optional(Price),
  plusAddonPriceDisplay: v.optional(PriceDisplay),
  gatewayPlusAddonPaymentLink: v.optional(Link),
  plusBundlePrice: v.optional(Price),
  plusBundlePriceDisplay: v.optional(PriceDisplay),
  gatewayPlusBundlePaymentLink: v.optional(Link),
  plusCommercialPrice: v.optional(Price),
  plusCommercialPriceDisplay: v.optional(PriceDisplay),
  gatewayPlusCommercialPaymentLink: v.optional(Link),
  plusAddonCommercialPrice: v.optional(Price),
  plusAddonCommercialPriceDisplay: v.optional(PriceDisplay),
  gatewayPlusAddonCommercialPaymentLink: v.optional(Link),
});
type _Pricing = Assert<Equal<v.InferOutput<typeof pricingObject>, Pricing>>;
export const PricingSchema: v.GenericSchema<Pricing> = pricingObject;

/** The offer fields of each product's price: its amount ("49.00") and how it is shown ("$49"). */
export const SKU_OFFER_FIELDS = {
  standard: { price: 'licensePrice', display: 'licensePriceDisplay' },
  plus_addon: { price: 'plusAddonPrice', display: 'plusAddonPriceDisplay' },
  plus_bundle: { price: 'plusBundlePrice', display: 'plusBundlePriceDisplay' },
} as const satisfies Record<CheckoutSku, { price: keyof Pricing; display: keyof Pricing }>;
