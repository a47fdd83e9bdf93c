/**
 * The operator's content: the live offer, installer addresses and roadmap features.
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';
import { Link } from './link.ts';
import { HeaderLink } from './wire-address.ts';
import { storableText, XML_TEXT, XML_TEXT_MESSAGE } from './stored-text.ts';
import { type Pricing, PricingSchema, ROADMAP_CATEGORIES, type RoadmapCategory, VersionString } from './responses.ts';

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

/** A link the operator adds to the shipped Windows-only page. */
export interface PageLink {
  text: string;
  url: string;
}

/** The wording of the shipped Windows-only page; each field left out keeps the shipped text. */
export interface WindowsOnlyPage {
  /** The heading; "<productDisplayName> runs on Windows" by default. */
  title?: string | undefined;
  /** The paragraphs under it, which say what the product is and why it needs Windows. */
  paragraphs?: string[] | undefined;
  /** Links after the "Download anyway" link, e.g. the product page or a notify-me form. */
  links?: PageLink[] | undefined;
}

/** Content as the core serves it: the live offer, installer addresses and roadmap features. */
export interface SiteContent {
  offer: Pricing;
  download: {
    /** The current MSI installer. */
    msiUrl: string;
    /** The SHA-256 of that MSI (64 hex digits), carried in the signed Installer-Digest header of update answers. */
    msiSha256?: string | undefined;
    /** Its size in bytes. */
    msiSize?: number | undefined;
    /** A Windows-only warning page of the operator's own; without it the shipped page (/windows-only) is used. */
    nonWindowsUrl?: string | undefined;
    /** The wording of the shipped page. */
    windowsOnlyPage?: WindowsOnlyPage | undefined;
  };
  roadmap: RoadmapContent[];
}

/** The roadmap feature object, for reading its fields. */
export const roadmapContentObject = v.strictObject({
  id: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2147483647)),
  title: v.pipe(v.string(), v.minLength(1), v.maxLength(200), ...storableText(XML_TEXT, XML_TEXT_MESSAGE)),
  description: v.pipe(v.string(), v.maxLength(2000), ...storableText(XML_TEXT, XML_TEXT_MESSAGE)),
  category: v.picklist(ROADMAP_CATEGORIES, `must be one of ${ROADMAP_CATEGORIES.join(', ')}`),
  visible: v.boolean(),
  release_version: v.optional(v.nullable(VersionString), null),
});

const PageText = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));

const windowsOnlyPageObject = v.strictObject({
  title: v.optional(PageText(200)),
  paragraphs: v.optional(v.pipe(v.array(PageText(2000)), v.maxLength(10))),
  links: v.optional(v.pipe(v.array(v.strictObject({ text: PageText(200), url: Link })), v.maxLength(10))),
});

/** The content object, for schemas that extend it (the config file) and for reading its fields. */
export const siteContentObject = v.strictObject({
  offer: PricingSchema,
  download: v.strictObject({
    /** The current MSI installer (ASCII on the wire: core/schemas/wire-address.ts). */
    msiUrl: HeaderLink,
    /** The SHA-256 of that MSI, for the baseline's signed update answers. */
    msiSha256: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{64}$/, 'must be the SHA-256 of the MSI as 64 hex digits'))),
    /** Its size in bytes. */
    msiSize: v.optional(v.pipe(v.number(), v.safeInteger('must be a whole number of bytes'), v.minValue(1))),
    /** A Windows-only warning page of the operator's own; the shipped one otherwise. */
    nonWindowsUrl: v.optional(HeaderLink),
    /** The wording of the shipped Windows-only page. */
    windowsOnlyPage: v.optional(windowsOnlyPageObject),
  }),
  roadmap: v.pipe(
    v.array(roadmapContentObject),
    v.check(
      (features) => new Set(features.map((f) => f.id)).size === features.length,
      'feature ids must be unique',
    ),
  ),
});

type _WindowsOnlyPage = Assert<Equal<v.InferOutput<typeof windowsOnlyPageObject>, WindowsOnlyPage>>;
type _RoadmapContent = Assert<Equal<v.InferOutput<typeof roadmapContentObject>, RoadmapContent>>;
type _SiteContent = Assert<Equal<v.InferOutput<typeof siteContentObject>, SiteContent>>;

/** A roadmap feature of the content; release_version may be omitted (null). */
export const RoadmapContentSchema: v.GenericSchema<unknown, RoadmapContent> = roadmapContentObject;
/** The operator's content, checked before the app starts. */
export const SiteContentSchema: v.GenericSchema<unknown, SiteContent> = siteContentObject;
