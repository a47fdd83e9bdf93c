/**
 * Response schemas: the shapes the API answers with, the single source of the response side of /openapi.json.
 * Each exported schema carries its written type; `Assert<Equal<...>>` proves the two are the same.
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';

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
const Link = v.pipe(v.string(), v.url('must be an absolute URL'), v.maxLength(2048));

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

/** A desktop version: dotted numbers with an optional pre-release tag, e.g. "2.4.1" or "2.5.0-beta.1". */
export const VersionString: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.regex(/^[0-9]+(\.[0-9]+){1,3}(-[0-9A-Za-z.-]{1,32})?$/, 'must be a version such as 2.4.1'),
);

/** The latest desktop version (GET /api/v1/version). */
export interface Version {
  /** Current desktop app version, e.g. "2.4.1". */
  version: string;
  /** Canonical MSI download URL for update checks. */
  downloadUrl: string;
}
const version = v.strictObject({
  version: v.pipe(VersionString, v.description('Current desktop app version, from the product version file.')),
  downloadUrl: v.pipe(Link, v.description('Canonical MSI download URL for update checks.')),
});
type _Version = Assert<Equal<v.InferOutput<typeof version>, Version>>;
export const VersionSchema: v.GenericSchema<Version> = version;

/** The answer to accepted feedback (POST /api/v1/feedback, 201). */
export interface FeedbackSuccess {
  success: true;
}
const feedbackSuccess = v.strictObject({ success: v.literal(true) });
type _FeedbackSuccess = Assert<Equal<v.InferOutput<typeof feedbackSuccess>, FeedbackSuccess>>;
export const FeedbackSuccessSchema: v.GenericSchema<FeedbackSuccess> = feedbackSuccess;

/** Roadmap categories. The set is fixed so that clients can rely on it; a new one is a minor API change. */
export const ROADMAP_CATEGORIES = ['formats', 'conversion', 'app', 'licensing', 'other'] as const;
/** A roadmap category. */
export type RoadmapCategory = (typeof ROADMAP_CATEGORIES)[number];

/** A visible roadmap feature with its votes, as the caller sees it. */
export interface RoadmapFeature {
  id: number;
  title: string;
  description: string;
  category: RoadmapCategory;
  vote_count: number;
  /** Whether the caller IP has voted for this feature. */
  voted: boolean;
  /** The version that shipped or will ship the feature; null when not planned yet. */
  release_version?: string | null | undefined;
}
const roadmapFeature = v.strictObject({
  id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2147483647)),
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  description: v.pipe(v.string(), v.maxLength(2000)),
  category: v.picklist(ROADMAP_CATEGORIES),
  vote_count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  voted: v.pipe(v.boolean(), v.description('Whether the caller IP has voted for this feature.')),
  release_version: v.optional(
    v.pipe(
      v.nullable(VersionString),
      v.description('The version that shipped or will ship the feature; null when not planned yet.'),
    ),
  ),
});
type _RoadmapFeature = Assert<Equal<v.InferOutput<typeof roadmapFeature>, RoadmapFeature>>;
export const RoadmapFeatureSchema: v.GenericSchema<RoadmapFeature> = roadmapFeature;

/** The public roadmap (GET /api/v1/roadmap). */
export interface RoadmapList {
  /** Visible features only, in id order. */
  features: RoadmapFeature[];
}
const roadmapList = v.strictObject({
  features: v.pipe(v.array(RoadmapFeatureSchema), v.description('Visible features only, in id order.')),
});
type _RoadmapList = Assert<Equal<v.InferOutput<typeof roadmapList>, RoadmapList>>;
export const RoadmapListSchema: v.GenericSchema<RoadmapList> = roadmapList;

/** The vote after a toggle (POST /api/v1/roadmap). */
export interface VoteResponse {
  /** Vote state after the toggle. */
  voted: boolean;
  /** Count after the toggle. */
  vote_count: number;
}
const voteResponse = v.strictObject({
  voted: v.pipe(v.boolean(), v.description('Vote state after the toggle.')),
  vote_count: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Count after the toggle.')),
});
type _VoteResponse = Assert<Equal<v.InferOutput<typeof voteResponse>, VoteResponse>>;
export const VoteResponseSchema: v.GenericSchema<VoteResponse> = voteResponse;

/** A new checkout session (POST /api/v1/checkout/create). */
export interface CheckoutCreateResponse {
  /** Checkout session identifier, for GET /api/v1/checkout/status. */
  sessionId: string;
  /** Hosted checkout address to open in a browser. */
  url: string;
}
const checkoutCreateResponse = v.strictObject({
  sessionId: v.pipe(v.string(), v.minLength(1), v.description('Checkout session identifier.')),
  url: v.pipe(Link, v.description('Hosted checkout address to open in a browser.')),
});
type _CheckoutCreateResponse = Assert<Equal<v.InferOutput<typeof checkoutCreateResponse>, CheckoutCreateResponse>>;
export const CheckoutCreateResponseSchema: v.GenericSchema<CheckoutCreateResponse> = checkoutCreateResponse;

/** The payment status and license keys of a checkout session (GET /api/v1/checkout/status). */
export interface CheckoutStatus {
  status: 'pending' | 'processing' | 'paid';
  /** The key of the purchased product; null until paid. */
  licenseKey?: string | null | undefined;
  /** Standard license key; null until paid. */
  standardLicenseKey?: string | null | undefined;
  /** Plus license key; null until paid. */
  plusLicenseKey?: string | null | undefined;
}
/** The same, under the name the operations use. */
export type CheckoutStatusBody = CheckoutStatus;

const LicenseKey = v.nullable(v.string());
const checkoutStatus = v.strictObject({
  status: v.picklist(['pending', 'processing', 'paid']),
  licenseKey: v.optional(
    v.pipe(LicenseKey, v.description('The key of the purchased product; null until paid.')),
  ),
  standardLicenseKey: v.optional(v.pipe(LicenseKey, v.description('Standard license key; null until paid.'))),
  plusLicenseKey: v.optional(v.pipe(LicenseKey, v.description('Plus license key; null until paid.'))),
});
type _CheckoutStatus = Assert<Equal<v.InferOutput<typeof checkoutStatus>, CheckoutStatus>>;
export const CheckoutStatusSchema: v.GenericSchema<CheckoutStatus> = checkoutStatus;
