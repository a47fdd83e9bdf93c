/**
 * The operator's content: the live offer, installer addresses and roadmap features.
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';
import { Link } from './link.ts';
import { PricingSchema, ROADMAP_CATEGORIES, VersionString, type Pricing, type RoadmapCategory } from './responses.ts';

/** A roadmap feature as the operator writes it; release_version defaults to null. */
export interface RoadmapContent {
  id: number;
  title: string;
  description: string;
  category: RoadmapCategory;
  /** Whether GET /api/v1/roadmap lists it and votes are taken. */
  visible: boolean;
  release_version: string | null;
}

/** Content as the core serves it: the live offer, installer addresses and roadmap features. */
export interface SiteContent {
  offer: Pricing;
  download: {
    /** The current MSI installer. */
    msiUrl: string;
    /** The Windows-only warning page shown to other platforms; optional. */
    nonWindowsUrl?: string | undefined;
  };
  roadmap: RoadmapContent[];
}

/** The roadmap feature object, for reading its fields. */
export const roadmapContentObject = v.strictObject({
  id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2147483647)),
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  description: v.pipe(v.string(), v.maxLength(2000)),
  category: v.picklist(ROADMAP_CATEGORIES, `must be one of ${ROADMAP_CATEGORIES.join(', ')}`),
  visible: v.boolean(),
  release_version: v.optional(v.nullable(VersionString), null),
});

/** The content object, for schemas that extend it (the config file) and for reading its fields. */
export const siteContentObject = v.strictObject({
  offer: PricingSchema,
  download: v.strictObject({
    /** The current MSI installer. */
    msiUrl: Link,
    /** The Windows-only warning page shown to other platforms. */
    nonWindowsUrl: v.optional(Link),
  }),
  roadmap: v.pipe(
    v.array(roadmapContentObject),
    v.check(
      (features) => new Set(features.map((f) => f.id)).size === features.length,
      'feature ids must be unique',
    ),
  ),
});

type _RoadmapContent = Assert<Equal<v.InferOutput<typeof roadmapContentObject>, RoadmapContent>>;
type _SiteContent = Assert<Equal<v.InferOutput<typeof siteContentObject>, SiteContent>>;

/** A roadmap feature of the content; release_version may be omitted (null). */
export const RoadmapContentSchema: v.GenericSchema<unknown, RoadmapContent> = roadmapContentObject;
/** The operator's content, checked before the app starts. */
export const SiteContentSchema: v.GenericSchema<unknown, SiteContent> = siteContentObject;
