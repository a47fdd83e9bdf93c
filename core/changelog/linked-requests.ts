/**
 * Requests linked to roadmap features (core/ports/link-store.ts), as they count: a link to a feature that
 * was merged counts for the feature its votes went to (following merged_into), so a merge moves the links
 * with the votes and an unmerge moves them back without a write.
 *
 * @module
 */
import type { LinkedRequest } from '../ports/link-store.ts';
import type { StoredFeature } from '../ports/store-ports.ts';

/** What following a merge needs of a feature. */
type Merged = Pick<StoredFeature, 'id' | 'merged_into'>;

/**
 * The feature a link to `id` counts for: `id`, or the end of its chain of merges; null when there is no
 * such feature. A chain is followed at most as many steps as there are features.
 */
export function countedFeature(id: number, features: ReadonlyMap<number, Merged>): number | null {
  let feature = features.get(id);
  for (let steps = 0; feature !== undefined && feature.merged_into !== null && steps < features.size; steps++) {
    feature = features.get(feature.merged_into);
  }
  return feature?.id ?? null;
}

/** What the roadmap admin shows of a feature's linked requests. */
export interface FeatureRequests {
  /** The linked entries' ids, ascending. */
  requests: number[];
  /** How many of them left an email. */
  withEmail: number;
}

/** The linked requests of each feature, by the feature they count for. */
export function requestsByFeature(linked: readonly LinkedRequest[], features: readonly StoredFeature[]): Map<number, FeatureRequests> {
  const byId = new Map(features.map((feature) => [feature.id, feature]));
  const counted = new Map<number, FeatureRequests>();
  for (const link of linked) {
    const feature = countedFeature(link.featureId, byId);
    if (feature === null) continue;
    const entry = counted.get(feature) ?? { requests: [], withEmail: 0 };
    entry.requests.push(link.feedbackId);
    if (link.email !== null) entry.withEmail++;
    counted.set(feature, entry);
  }
  for (const entry of counted.values()) entry.requests.sort((a, b) => a - b);
  return counted;
}
