/**
 * Response schemas: the shapes the API answers with, the single source of the response side of /openapi.json.
 *
 * @module
 */
import * as v from 'valibot';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.ts';

const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** Every code with its status and when it happens, as a Markdown list. */
const CODE_LIST = ERROR_CODES.map(
  (code) => `- \`${code}\` (${ERROR_CATALOGUE[code].status}): ${ERROR_CATALOGUE[code].when}`,
).join('\n');

export const ApiErrorSchema = v.strictObject({
  code: v.pipe(
    v.picklist(ERROR_CODES),
    v.description(`Stable machine-readable error code, one of:\n\n${CODE_LIST}`),
  ),
  message: v.pipe(v.string(), v.description('Human-readable summary.')),
  resolution: v.pipe(v.string(), v.description('Suggested next step for the client.')),
});

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

export const PricingSchema = v.strictObject({
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
export type Pricing = v.InferOutput<typeof PricingSchema>;

/** A desktop version: dotted numbers with an optional pre-release tag, e.g. "2.4.1" or "2.5.0-beta.1". */
export const VersionString = v.pipe(
  v.string(),
  v.regex(/^[0-9]+(\.[0-9]+){1,3}(-[0-9A-Za-z.-]{1,32})?$/, 'must be a version such as 2.4.1'),
);

export const VersionSchema = v.strictObject({
  version: v.pipe(VersionString, v.description('Current desktop app version, from the product version file.')),
  downloadUrl: v.pipe(Link, v.description('Canonical MSI download URL for update checks.')),
});

export const FeedbackSuccessSchema = v.strictObject({ success: v.literal(true) });

/** The body of a probe that passes: "ok" from /healthz, "ready" from /readyz. */
export const ProbeSchema = v.pipe(
  v.strictObject({ status: v.picklist(['ok', 'ready']) }),
  v.description('A passing probe: {"status":"ok"} from /healthz, {"status":"ready"} from /readyz.'),
);

/** Roadmap categories. The set is fixed so that clients can rely on it; a new one is a minor API change. */
export const ROADMAP_CATEGORIES = ['formats', 'conversion', 'app', 'licensing', 'other'] as const;

export const RoadmapFeatureSchema = v.strictObject({
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

export const RoadmapListSchema = v.strictObject({
  features: v.pipe(v.array(RoadmapFeatureSchema), v.description('Visible features only, in id order.')),
});

export const VoteResponseSchema = v.strictObject({
  voted: v.pipe(v.boolean(), v.description('Vote state after the toggle.')),
  vote_count: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Count after the toggle.')),
});

export const CheckoutCreateResponseSchema = v.strictObject({
  sessionId: v.pipe(v.string(), v.minLength(1), v.description('Checkout session identifier.')),
  url: v.pipe(Link, v.description('Hosted checkout address to open in a browser.')),
});

const LicenseKey = v.nullable(v.string());

export const CheckoutStatusSchema = v.strictObject({
  status: v.picklist(['pending', 'processing', 'paid']),
  licenseKey: v.optional(
    v.pipe(LicenseKey, v.description('The key of the purchased product; null until paid.')),
  ),
  standardLicenseKey: v.optional(v.pipe(LicenseKey, v.description('Standard license key; null until paid.'))),
  plusLicenseKey: v.optional(v.pipe(LicenseKey, v.description('Plus license key; null until paid.'))),
});
export type CheckoutStatusBody = v.InferOutput<typeof CheckoutStatusSchema>;
