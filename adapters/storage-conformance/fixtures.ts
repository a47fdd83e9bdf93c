/**
 * The releases and roadmap features the contract's cases store, written once: what a case gives the
 * storage, and what the storage must give back when nothing else changed it.
 */
import type { RoadmapFeature, StoredFeature } from '../../core/ports/ports.ts';
import { type NewRelease, publishedRelease, type Release } from '../../core/ports/release-store.ts';

/** The installer address of a release. */
export const msiUrl = (version: string): string => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

/** A release to publish, without notes, integrity fields or plan; `over` gives the rest. */
export const newRelease = (version: string, rolloutBasisPoints: number, publishedAt: number, over: Partial<NewRelease> = {}): NewRelease => ({
  version,
  msiUrl: msiUrl(version),
  notesUrl: null,
  rolloutBasisPoints,
  publishedAt,
  ...over,
});

/** `release` as the storage gives it back once published (core's rule, `publishedRelease`), with `over` changed since. */
export const storedRelease = (release: NewRelease, over: Partial<Release> = {}): Release => ({ ...publishedRelease(release), ...over });

/** A roadmap feature as the config file gives it: "Feature 1", "About 1", visible, in no release. */
export const feature = (id: number, over: Partial<RoadmapFeature> = {}): RoadmapFeature => ({
  id,
  title: `Feature ${id}`,
  description: `About ${id}`,
  category: 'formats',
  visible: true,
  release_version: null,
  ...over,
});

/** `feature(id)` as the storage gives it back once synced from the config file: no votes, not merged. */
export const storedFeature = (id: number, over: Partial<StoredFeature> = {}): StoredFeature => ({
  ...feature(id),
  vote_count: 0,
  merged_into: null,
  from_config: true,
  ...over,
});
