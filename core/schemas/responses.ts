/**
 * Response schemas: the shapes the API answers with, the single source of the response side of /openapi.json.
 * One module per area, so that a bundle keeps only the schemas it uses; each exported schema carries its
 * written type, and `Assert<Equal<...>>` proves the two are the same.
 *
 * @module
 */
export { type CheckoutCreateResponse, CheckoutCreateResponseSchema, type CheckoutStatus, CheckoutStatusSchema } from './checkout.ts';
export { type FeedbackSuccess, FeedbackSuccessSchema } from './feedback.ts';
export { type Pricing, pricingObject, PricingSchema } from './pricing.ts';
export {
  ROADMAP_CATEGORIES,
  type RoadmapCategory,
  type RoadmapFeature,
  RoadmapFeatureSchema,
  type RoadmapList,
  RoadmapListSchema,
  type VoteResponse,
  VoteResponseSchema,
} from './roadmap.ts';
export { type Version, VersionSchema, VersionString } from './version.ts';
