/**
 * Response schemas: the shapes the API answers with, the single source of the response side of /openapi.json.
 * One module per area, so that a bundle keeps only the schemas it uses; each exported schema carries its
 * written type, and `Assert<Equal<...>>` proves the two are the same.
 *
 * @module
 */
export { CheckoutCreateResponseSchema, CheckoutStatusSchema, type CheckoutCreateResponse, type CheckoutStatus } from './checkout.ts';
export { FeedbackSuccessSchema, type FeedbackSuccess } from './feedback.ts';
export { pricingObject, PricingSchema, type Pricing } from './pricing.ts';
export {
  ROADMAP_CATEGORIES,
  RoadmapFeatureSchema,
  RoadmapListSchema,
  VoteResponseSchema,
  type RoadmapCategory,
  type RoadmapFeature,
  type RoadmapList,
  type VoteResponse,
} from './roadmap.ts';
export { VersionSchema, VersionString, type Version } from './version.ts';
