/**
 * The public roadmap and the answer to a vote (GET and POST /api/v1/roadmap).
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';
import { VersionString } from './version.ts';

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
