/**
 * The operator's content: the live offer, installer addresses and roadmap features.
 *
 * @module
 */
import * as v from 'valibot';
import { PricingSchema, ROADMAP_CATEGORIES, VersionString } from './responses.ts';

const Link = v.pipe(v.string(), v.url('must be an absolute URL'), v.maxLength(2048));

export const RoadmapContentSchema = v.strictObject({
  id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2147483647)),
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  description: v.pipe(v.string(), v.maxLength(2000)),
  category: v.picklist(ROADMAP_CATEGORIES, `must be one of ${ROADMAP_CATEGORIES.join(', ')}`),
  visible: v.boolean(),
  release_version: v.optional(v.nullable(VersionString), null),
});

export const SiteContentSchema = v.strictObject({
  offer: PricingSchema,
  download: v.strictObject({
    /** The current MSI installer. */
    msiUrl: Link,
    /** The Windows-only warning page shown to other platforms. */
    nonWindowsUrl: Link,
  }),
  roadmap: v.pipe(
    v.array(RoadmapContentSchema),
    v.check(
      (features) => new Set(features.map((f) => f.id)).size === features.length,
      'feature ids must be unique',
    ),
  ),
});

/** Content as the core serves it. */
export type SiteContent = v.InferOutput<typeof SiteContentSchema>;
